package com.ibm.disni.verbs;

import java.io.IOException;
import java.nio.ByteBuffer;
import org.jwarp.verbs.ProtectionDomain;

/** A protection domain ({@code struct ibv_pd}) over a jwarp {@link ProtectionDomain}. */
public class IbvPd {
    protected int handle;
    protected IbvContext context;
    protected volatile boolean isOpen;
    final ProtectionDomain pd;

    public IbvPd(IbvContext context) throws IOException {
        this.context = context;
        try {
            this.pd = context.device.allocPd();
        } catch (RuntimeException e) {
            throw new IOException("ibv_alloc_pd: " + e.getMessage(), e);
        }
        this.handle = pd.handle();
        this.isOpen = true;
    }

    public int getHandle() throws IOException {
        return handle;
    }

    public IbvContext getContext() {
        return context;
    }

    public boolean isOpen() {
        return isOpen;
    }

    public void close() {
        if (isOpen) {
            isOpen = false;
            pd.close();
        }
    }

    /** Registers the whole of a direct buffer, from its address for its capacity, as DiSNI does. */
    public SVCRegMr regMr(ByteBuffer buffer, int access) throws IOException {
        return new RegMrCall(this, buffer, 0, 0, access);
    }

    /** Registers native memory named by its address. */
    public SVCRegMr regMr(long address, int length, int access) throws IOException {
        return new RegMrCall(this, null, address, length, access);
    }

    public int deallocPd() throws Exception {
        close();
        return 0;
    }
}
