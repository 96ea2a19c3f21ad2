package com.ibm.disni.verbs;

import java.io.IOException;
import org.jwarp.disni.DisniDevice;
import org.jwarp.verbs.RdmaDevice;

/**
 * A device context ({@code struct ibv_context}). Over jwarp every address resolves to the process's
 * one jwarp device ({@link DisniDevice}), so every id and group sees the same context; its
 * {@code cmd_fd} is a stable number that programs (DaRPC) use as the device's key.
 */
public class IbvContext {
    public static int IBV_ODP_SUPPORT_SEND = 1;
    public static int IBV_ODP_SUPPORT_RECV = 2;
    public static int IBV_ODP_SUPPORT_WRITE = 4;
    public static int IBV_ODP_SUPPORT_READ = 8;
    public static int IBV_ODP_SUPPORT_ATOMIC = 16;

    private static IbvContext shared;

    protected int cmd_fd;
    protected volatile boolean isOpen;
    protected int numCompVectors;
    final RdmaDevice device;

    protected IbvContext(int cmd_fd, int numCompVectors) throws IOException {
        this.cmd_fd = cmd_fd;
        this.numCompVectors = numCompVectors;
        this.device = open();
        this.isOpen = true;
    }

    private static RdmaDevice open() throws IOException {
        try {
            return DisniDevice.get();
        } catch (RuntimeException e) {
            throw new IOException("cannot open the jwarp device: " + e.getMessage(), e);
        }
    }

    /** The context of the process's jwarp device. */
    static synchronized IbvContext shared() throws IOException {
        if (shared == null) {
            shared = new IbvContext(1, 1);
        }
        return shared;
    }

    public int getCmd_fd() throws IOException {
        return cmd_fd;
    }

    public int getNumCompVectors() throws IOException {
        return numCompVectors;
    }

    public boolean isOpen() {
        return isOpen;
    }

    /** Marks the context closed; the device stays open for the process's other objects until the JVM exits. */
    public void close() {
        isOpen = false;
    }

    public IbvPd allocPd() throws IOException {
        return new IbvPd(this);
    }

    public IbvCompChannel createCompChannel() throws IOException {
        return new IbvCompChannel(cmd_fd, this);
    }

    public IbvCQ createCQ(IbvCompChannel compChannel, int ncqe, int comp_vector) throws IOException {
        return new IbvCQ(this, compChannel, ncqe);
    }

    /** jwarp has no on-demand paging: no capability bits. */
    public int queryOdpSupport() throws IOException {
        return 0;
    }
}
