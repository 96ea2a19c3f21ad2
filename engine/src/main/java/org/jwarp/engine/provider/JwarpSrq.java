package org.jwarp.engine.provider;

import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.jwarp.engine.ring.MpscSlotRing;
import org.jwarp.stack.SharedReceiveView;
import org.jwarp.stack.WorkQueue;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SharedReceiveQueue;

/**
 * The shared receive queue: a ring that application threads post into and the engine threads of
 * every queue pair on it take from, each message taking the oldest receive. A queue pair sees it
 * through {@link #view()}, which holds the receive its message under way took.
 */
final class JwarpSrq implements SharedReceiveQueue {

    private final JwarpPd pd;
    private final int maxSge;
    private final MpscSlotRing<RecvWr> ring;
    private final AtomicInteger limit = new AtomicInteger();
    private final Semaphore limitReached = new Semaphore(0);
    private final AtomicLong limitEvents = new AtomicLong();
    /** Open queue pairs created with this queue. */
    private final AtomicInteger users = new AtomicInteger();
    private volatile boolean closed;

    JwarpSrq(JwarpPd pd, int capacity, int maxSge, int limit) {
        this.pd = pd;
        this.maxSge = maxSge;
        this.ring = new MpscSlotRing<>(capacity, () -> new RecvWr(maxSge));
        this.limit.set(limit);
    }

    @Override
    public ProtectionDomain pd() {
        return pd;
    }

    @Override
    public int maxWr() {
        return ring.capacity();
    }

    @Override
    public int maxSge() {
        return maxSge;
    }

    @Override
    public int postRecv(RecvWr wr) {
        return post(wr, 0);
    }

    @Override
    public int postRecv(RecvWr[] wrs, int count) {
        for (int i = 0; i < count; i++) {
            int rc = post(wrs[i], i);
            if (rc != PostStatus.OK) {
                return rc;
            }
        }
        return PostStatus.OK;
    }

    private int post(RecvWr wr, int index) {
        if (closed) {
            return PostStatus.error(PostStatus.QP_DESTROYED, index);
        }
        int check = wr.check(maxSge);
        if (check != PostStatus.OK) {
            return PostStatus.error(check, index);
        }
        long c = ring.claim();
        if (c < 0) {
            return PostStatus.error(PostStatus.QUEUE_FULL, index);
        }
        ring.slot(c).copyFrom(wr);
        ring.publish(c);
        return PostStatus.OK;
    }

    /**
     * Engine thread of a queue pair on this queue: moves the oldest receive into {@code into}.
     *
     * @return false if the queue is empty
     */
    boolean take(RecvWr into) {
        long c = ring.take();
        if (c < 0) {
            return false;
        }
        into.copyFrom(ring.slot(c));
        ring.taken(c);
        int l = limit.get();
        if (l > 0 && ring.size() < l && limit.compareAndSet(l, 0)) {
            limitEvents.incrementAndGet();
            limitReached.release();
        }
        return true;
    }

    /** A queue pair's view: {@code peek} takes a receive for the message under way and holds it. */
    WorkQueue<RecvWr> view() {
        return new SharedReceiveView(this::take, maxSge);
    }

    @Override
    public int size() {
        return ring.size();
    }

    @Override
    public void armLimit(int l) {
        if (l < 0 || l > maxWr()) {
            throw new IllegalArgumentException("the limit must be 0 to maxWr (" + maxWr() + "), not " + l);
        }
        limit.set(l);
    }

    @Override
    public int limit() {
        return limit.get();
    }

    @Override
    public boolean awaitLimit(long timeout, TimeUnit unit) throws InterruptedException {
        return limitReached.tryAcquire(timeout, unit);
    }

    @Override
    public long limitEvents() {
        return limitEvents.get();
    }

    /** A queue pair is created on this queue (setup). */
    void attach() {
        if (closed) {
            throw new IllegalStateException("the shared receive queue is closed");
        }
        users.incrementAndGet();
    }

    /** A queue pair on this queue was destroyed. */
    void detach() {
        users.decrementAndGet();
    }

    @Override
    public void close() {
        if (users.get() > 0) {
            throw new IllegalStateException("the shared receive queue still has " + users.get()
                    + " queue pair(s); destroy them first");
        }
        closed = true;
    }

    @Override
    public String toString() {
        return "JwarpSrq{maxWr=" + maxWr() + ", posted=" + size() + ", limit=" + limit() + '}';
    }
}
