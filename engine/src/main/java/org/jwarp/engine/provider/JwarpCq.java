package org.jwarp.engine.provider;

import org.jwarp.engine.notify.CqArming;
import org.jwarp.engine.ring.MpscSlotRing;
import org.jwarp.verbs.CompletionChannel;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.WorkCompletion;

/**
 * A completion queue: a bounded ring of completion slots that engine threads fill (several may,
 * for QPs on different engine threads) and one application thread polls, copying each into the
 * caller's reusable {@link WorkCompletion}. Polling allocates nothing. In invoker mode a poll that
 * finds the ring empty first runs one engine duty cycle.
 */
final class JwarpCq implements CompletionQueue {

    private final JwarpDevice device;
    private final int handle;
    private final MpscSlotRing<WorkCompletion> ring;
    private final JwarpChannel channel;
    private final CqArming<CompletionQueue> arming;
    private volatile boolean closed;

    JwarpCq(JwarpDevice device, int handle, int depth, JwarpChannel channel) {
        this.device = device;
        this.handle = handle;
        this.ring = new MpscSlotRing<>(depth, WorkCompletion::new);
        this.channel = channel;
        this.arming = channel == null ? null : channel.register(this);
    }

    @Override
    public RdmaDevice device() {
        return device;
    }

    @Override
    public int handle() {
        return handle;
    }

    @Override
    public int depth() {
        return ring.capacity();
    }

    @Override
    public CompletionChannel channel() {
        return channel;
    }

    @Override
    public int poll(WorkCompletion[] wcs, int max) {
        int n = drain(wcs, max);
        if (n == 0 && device.invokerMode()) {
            device.invoke();
            n = drain(wcs, max);
        }
        return n;
    }

    private int drain(WorkCompletion[] wcs, int max) {
        int n = 0;
        int limit = Math.min(max, wcs.length);
        while (n < limit) {
            WorkCompletion wc = ring.peek();
            if (wc == null) {
                break;
            }
            wcs[n++].copyFrom(wc);
            ring.release();
        }
        return n;
    }

    @Override
    public void requestNotify(boolean solicitedOnly) {
        if (arming == null) {
            throw new IllegalStateException("this completion queue was created without a completion channel");
        }
        arming.requestNotify(solicitedOnly);
    }

    /** The engine side of this CQ for one QP (single producer per instance). */
    Producer producer() {
        return new Producer();
    }

    @Override
    public void close() {
        closed = true;
        if (channel != null) {
            channel.unregister(arming);
        }
    }

    boolean isClosed() {
        return closed;
    }

    /** Fills completion slots on one engine thread and raises the channel event when armed. */
    final class Producer implements org.jwarp.stack.CompletionSink {
        private long claim = -1;

        @Override
        public WorkCompletion claim() {
            claim = ring.claim();
            return claim < 0 ? null : ring.slot(claim);
        }

        @Override
        public void publish(boolean solicited) {
            WorkCompletion wc = ring.slot(claim);
            ring.publish(claim);
            claim = -1;
            if (arming != null) {
                // error completions wake a solicited-only waiter too (OFED semantics)
                arming.onCompletion(solicited || !wc.isSuccess());
            }
        }
    }
}
