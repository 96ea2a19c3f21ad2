package com.ibm.disni.verbs;

import java.io.IOException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.jwarp.disni.DisniDevice;
import org.jwarp.verbs.RdmaDevice;

/**
 * An event channel ({@code struct rdma_event_channel}): the queue the events of its ids arrive on,
 * in order, translated from jwarp's connection manager events.
 */
public class RdmaEventChannel {
    private static final AtomicInteger FDS = new AtomicInteger(100);

    protected volatile boolean isOpen;
    private final int fd;
    private final LinkedBlockingQueue<RdmaCmEvent> events = new LinkedBlockingQueue<>();

    protected RdmaEventChannel(int fd) throws IOException {
        this.fd = fd;
        this.isOpen = true;
    }

    public int getFd() {
        return fd;
    }

    public boolean isOpen() {
        return isOpen;
    }

    public void close() {
        isOpen = false;
    }

    public static RdmaEventChannel createEventChannel() throws IOException {
        return new RdmaEventChannel(FDS.getAndIncrement());
    }

    /** A new id on this channel; iWARP is TCP, so the port space must be {@link RdmaCm#RDMA_PS_TCP}. */
    public RdmaCmId createId(short rdma_ps) throws IOException {
        if (rdma_ps != RdmaCm.RDMA_PS_TCP) {
            throw new IOException("createId: port space " + rdma_ps + " is not supported; iWARP has RDMA_PS_TCP only");
        }
        return new RdmaCmId(this, IbvContext.shared());
    }

    /**
     * The next event, waiting up to {@code timeout} milliseconds (forever if negative); null if none
     * came in time or the channel was closed.
     */
    public RdmaCmEvent getCmEvent(int timeout) throws IOException {
        if (!isOpen) {
            throw new IOException("rdma_get_cm_event: the event channel is closed");
        }
        try {
            RdmaDevice device = DisniDevice.get();
            if (device.needsInvoke()) {
                // no engine thread: events arise only while some thread runs the duty cycle, so the
                // waiting thread runs it (as CmEventQueue.poll(timeout, device) does)
                boolean forever = timeout < 0;
                while (!device.invokeUntil(() -> !events.isEmpty() || !isOpen, forever ? 1000 : timeout,
                        TimeUnit.MILLISECONDS) && forever && isOpen) {
                    // waited a second for an event that may take longer; go on
                }
                return events.poll();
            }
            if (timeout >= 0) {
                return events.poll(timeout, TimeUnit.MILLISECONDS);
            }
            RdmaCmEvent e;
            do {
                e = events.poll(1, TimeUnit.SECONDS);
            } while (e == null && isOpen);
            return e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return null;
        }
    }

    public int destroyEventChannel() throws IOException {
        close();
        return 0;
    }

    void post(RdmaCmEvent event) {
        events.add(event);
    }
}
