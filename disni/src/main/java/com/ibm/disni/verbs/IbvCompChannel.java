package com.ibm.disni.verbs;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.jwarp.verbs.CompletionChannel;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.Moderation;

/** A completion channel ({@code struct ibv_comp_channel}) over a jwarp {@link CompletionChannel}. */
public class IbvCompChannel {
    protected IbvContext context;
    protected volatile boolean isOpen;
    private final int fd;
    final CompletionChannel channel;

    protected IbvCompChannel(int fd, IbvContext context) throws IOException {
        this.fd = fd;
        this.context = context;
        try {
            this.channel = context.device.createCompletionChannel(Moderation.NONE);
        } catch (RuntimeException e) {
            throw new IOException("ibv_create_comp_channel: " + e.getMessage(), e);
        }
        this.isOpen = true;
    }

    public int getFd() {
        return fd;
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
            channel.close();
        }
    }

    /**
     * Waits up to {@code timeout} milliseconds (forever if negative) for a completion event of an
     * armed CQ on this channel: true if one came, false on timeout or interrupt (the interrupt stays set).
     */
    public boolean getCqEvent(IbvCQ cq, int timeout) throws IOException {
        if (!isOpen) {
            throw new IOException("ibv_get_cq_event: the completion channel is closed");
        }
        try {
            CompletionQueue got;
            if (timeout < 0) {
                do {
                    got = channel.await(1, TimeUnit.SECONDS);
                } while (got == null && isOpen);
            } else {
                got = channel.await(timeout, TimeUnit.MILLISECONDS);
            }
            return got != null;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    public int destroyCompChannel() throws IOException {
        close();
        return 0;
    }
}
