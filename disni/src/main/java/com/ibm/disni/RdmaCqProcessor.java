package com.ibm.disni;

import com.ibm.disni.util.DiSNILogger;
import com.ibm.disni.util.NativeAffinity;
import com.ibm.disni.verbs.IbvContext;
import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.SVCPollCq;
import com.ibm.disni.verbs.SVCReqNotify;
import java.io.IOException;
import org.jwarp.disni.IntMap;

/**
 * A thread that drains a shared CQ and hands each completion to the endpoint whose QP it belongs to
 * ({@link #registerQP}). Polling mode spins on the CQ; otherwise the thread arms the CQ, polls once
 * more (a completion may have come in between) and sleeps on the channel up to {@code timeout} ms.
 * The thread is pinned to {@code affinity} where {@link NativeAffinity} can.
 */
public abstract class RdmaCqProcessor<C extends RdmaEndpoint> extends RdmaCqProvider implements Runnable {
    private final IntMap<C> endpoints = new IntMap<>();
    private final IbvWC[] wcList;
    private final SVCPollCq poll;
    private final SVCReqNotify arm;
    private final long affinity;
    private final int clusterId;
    private final int timeout;
    private final boolean polling;
    private final Thread thread;
    private volatile boolean running;

    public RdmaCqProcessor(IbvContext context, int cqSize, int wrSize, long affinity, int clusterId, int timeout,
            boolean polling) throws IOException {
        super(context, cqSize);
        this.wcList = new IbvWC[Math.max(1, wrSize)];
        for (int i = 0; i < wcList.length; i++) {
            wcList[i] = new IbvWC();
        }
        this.poll = cq.poll(wcList, wcList.length);
        this.arm = cq.reqNotification(false);
        this.affinity = affinity;
        this.clusterId = clusterId;
        this.timeout = timeout > 0 ? timeout : 1000;
        this.polling = polling;
        this.thread = new Thread(this, "disni-cq-" + clusterId);
    }

    public synchronized void registerQP(int qpnum, C endpoint) throws IOException {
        endpoints.put(qpnum, endpoint);
    }

    public synchronized void unregister(RdmaEndpoint endpoint) throws IOException {
        if (endpoint.getQp() != null) {
            endpoints.remove(endpoint.getQp().getQp_num());
        }
    }

    public synchronized boolean isRunning() {
        return running;
    }

    public synchronized void start() {
        running = true;
        thread.start();
    }

    /** Hands {@code wc} to the endpoint of its QP; a completion of an unregistered QP is dropped. */
    public final void dispatchCqEvent(IbvWC wc) throws IOException {
        C endpoint = endpoints.get(wc.getQp_num());
        if (endpoint != null) {
            dispatchCqEvent(endpoint, wc);
        }
    }

    public abstract void dispatchCqEvent(C endpoint, IbvWC wc) throws IOException;

    @Override
    public void run() {
        NativeAffinity.setAffinity(affinity);
        while (running) {
            try {
                if (drain() > 0 || polling) {
                    continue;
                }
                arm.execute();
                if (drain() > 0) {
                    continue;
                }
                if (compChannel.getCqEvent(cq, timeout)) {
                    cq.ackEvents(1);
                }
            } catch (IOException | RuntimeException e) {
                if (running) {
                    DiSNILogger.getLogger().warn("CQ processing failed: " + e);
                }
            }
        }
    }

    private int drain() throws IOException {
        int n = poll.execute().getPolls();
        for (int i = 0; i < n; i++) {
            dispatchCqEvent(wcList[i]);
        }
        return n;
    }

    public int getClusterId() {
        return clusterId;
    }

    @Override
    public void close() throws IOException, InterruptedException {
        synchronized (this) {
            running = false;
        }
        if (thread.isAlive() && thread != Thread.currentThread()) {
            // out of its wait at once, not after the group's timeout
            thread.interrupt();
            thread.join();
        }
        super.close();
    }
}
