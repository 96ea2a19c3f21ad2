package com.ibm.disni.verbs;

import java.io.IOException;
import org.jwarp.verbs.CompletionQueue;

/** A completion queue ({@code struct ibv_cq}) over a jwarp {@link CompletionQueue}. */
public class IbvCQ {
    protected IbvContext context;
    protected IbvCompChannel channel;
    protected int cqe;
    protected int handle;
    protected volatile boolean isOpen;
    final CompletionQueue cq;

    public IbvCQ(IbvContext context, IbvCompChannel channel, int cqe) throws IOException {
        this.context = context;
        this.channel = channel;
        this.cqe = cqe;
        try {
            this.cq = context.device.createCq(cqe, channel == null ? null : channel.channel);
        } catch (RuntimeException e) {
            throw new IOException("ibv_create_cq: " + e.getMessage(), e);
        }
        this.handle = cq.handle();
        this.isOpen = true;
    }

    public int getHandle() {
        return handle;
    }

    public IbvContext getContext() {
        return context;
    }

    public IbvCompChannel getChannel() {
        return channel;
    }

    public int getCqe() {
        return cqe;
    }

    public boolean isOpen() {
        return isOpen;
    }

    public void close() {
        if (isOpen) {
            isOpen = false;
            cq.close();
        }
    }

    /** A prepared poll of up to {@code ne} completions into {@code wcList}. */
    public SVCPollCq poll(IbvWC[] wcList, int ne) throws IOException {
        return new PollCqCall(this, wcList, ne);
    }

    /** A prepared arm of this CQ's channel: the next (solicited) completion raises an event. */
    public SVCReqNotify reqNotification(boolean solicited_only) throws IOException {
        return new ReqNotifyCall(this, solicited_only);
    }

    /** jwarp counts no unacknowledged events, so acknowledging succeeds at once. */
    public int ackEvents(int nevents) throws IOException {
        return 0;
    }

    public int destroyCQ() throws IOException {
        close();
        return 0;
    }
}
