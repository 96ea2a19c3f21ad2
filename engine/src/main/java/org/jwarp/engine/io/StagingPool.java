package org.jwarp.engine.io;

import java.util.ArrayDeque;
import org.jwarp.engine.affinity.MemoryPolicy;

/**
 * One engine thread's staging memory, so that an idle connection holds none: the receive buffer
 * every read of the thread goes through (the stream takes all of a read's bytes before the next
 * one, so one is enough), and transmit buffers a connection borrows while it has framed bytes the
 * socket has not taken, and gives back once they are written. Memory per connection is then
 * proportional to the connections with data in flight, not to the connections.
 *
 * <p>Confined to the thread running the engine's duty cycle (one at a time in invoker and hybrid
 * modes). A connection that moves to another engine thread returns its buffer to that thread's pool.
 * Buffers are made on the thread's NUMA node when it has one (seed 004).
 */
public final class StagingPool {

    /** Bytes per staging buffer: more than one 64 KiB FPDU with its framing, a few small ones per call. */
    public static final int SIZE = 256 * 1024;
    /**
     * Spare transmit buffers kept at least; past that a returned one is left to the garbage
     * collector, unless more were lent at once before (see {@link #give}).
     */
    static final int MAX_SPARE = 4;
    /** The most spares kept: the writes one io_uring flush carries at most. */
    static final int MAX_KEPT = 64;

    private final ArrayDeque<Staging> spare = new ArrayDeque<>(MAX_SPARE);
    /** Transmit buffers lent and not given back, and the most lent at once. */
    private int lent;
    private int peakLent;
    private int node = -1;
    private Staging rx;
    private long made;

    /** New buffers prefer NUMA node {@code n} (-1: none). */
    public void node(int n) {
        node = n;
    }

    /** The thread's receive buffer. */
    public Staging rx() {
        if (rx == null) {
            rx = make();
        }
        return rx;
    }

    /** A transmit buffer, spare or new. */
    public Staging borrow() {
        lent++;
        peakLent = Math.max(peakLent, lent);
        Staging s = spare.pollFirst();
        return s != null ? s : make();
    }

    /**
     * Gives back a transmit buffer whose bytes were all written. As many spares are kept as were
     * once lent at the same time (up to {@link #MAX_KEPT}): a duty cycle whose writes wait for one
     * batched flush holds a buffer per connection with data, every cycle, and must not make new ones.
     */
    public void give(Staging s) {
        lent = Math.max(0, lent - 1);       // a connection that moved here gives back what another pool lent
        if (spare.size() < Math.max(MAX_SPARE, Math.min(peakLent, MAX_KEPT))) {
            spare.addFirst(s);
        }
    }

    /**
     * The thread slept: spares kept past {@link #MAX_SPARE} for a burst of batched calls go back to
     * the garbage collector, and the count of buffers lent at once starts again from those lent now.
     */
    public void trim() {
        while (spare.size() > MAX_SPARE) {
            spare.pollLast();
        }
        peakLent = lent;
    }

    /** Buffers this pool has made (for tests and counters). */
    public long made() {
        return made;
    }

    private Staging make() {
        Staging s = Staging.allocate(SIZE);
        if (node >= 0) {
            MemoryPolicy.preferNode(s.segment(), node);
        }
        made++;
        return s;
    }
}
