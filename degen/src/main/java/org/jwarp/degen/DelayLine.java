package org.jwarp.degen;

import org.jwarp.degen.DirectionStats.Counter;

/**
 * One direction of the emulator without any I/O: packets are offered with their arrival time,
 * held in a {@link PacketQueue} and released when due by the {@link LinkModel}. The router calls
 * it with real times; tests call it with made-up ones, so ordering, burst handling, the rate limit,
 * jitter and loss are checked deterministically. Single-threaded (the router thread owns it).
 */
public final class DelayLine {

    /** Outcome of {@link #offer}: the packet was queued. */
    public static final int QUEUED = 0;
    /** The packet is larger than the egress MTU (degen does not fragment or send ICMP). */
    public static final int DROPPED_MTU = 3;

    private final LinkModel model;
    private final PacketQueue queue;
    private final DirectionStats stats;
    private final int egressMtu;

    public DelayLine(LinkModel model, PacketQueue queue, DirectionStats stats, int egressMtu) {
        this.model = model;
        this.queue = queue;
        this.stats = stats;
        this.egressMtu = egressMtu;
    }

    public PacketQueue queue() {
        return queue;
    }

    public DirectionStats stats() {
        return stats;
    }

    /** Where to read the next packet into, or -1 if the queue is full (then call {@link #dropFull}). */
    public long reserve() {
        return queue.reserve();
    }

    /** Counts a packet that had to be read and discarded because the queue was full. */
    public void dropFull(int len) {
        stats.add(Counter.RX_PACKETS, 1);
        stats.add(Counter.RX_BYTES, len);
        stats.add(Counter.DROP_FULL, 1);
    }

    /**
     * A packet of {@code len} bytes was read into offset {@code at} at {@code arrivalNanos}.
     *
     * @return {@link #QUEUED}, {@link LinkModel#DROP_LOSS}, {@link LinkModel#DROP_QUEUE} or
     *         {@link #DROPPED_MTU}
     */
    public int offer(long at, int len, long arrivalNanos) {
        stats.add(Counter.RX_PACKETS, 1);
        stats.add(Counter.RX_BYTES, len);
        if (len > egressMtu) {
            stats.add(Counter.DROP_MTU, 1);
            return DROPPED_MTU;
        }
        int verdict = model.admit(arrivalNanos, len);
        if (verdict == LinkModel.DROP_LOSS) {
            stats.add(Counter.DROP_LOSS, 1);
            return verdict;
        }
        if (verdict == LinkModel.DROP_QUEUE) {
            stats.add(Counter.DROP_QUEUE, 1);
            return verdict;
        }
        queue.commit(at, len, arrivalNanos, model.due());
        stats.set(Counter.QUEUE_DEPTH, queue.size());
        stats.set(Counter.QUEUE_BYTES, queue.bytes());
        stats.max(Counter.QUEUE_DEPTH_MAX, queue.size());
        return QUEUED;
    }

    /** True if the head packet is due at {@code nowNanos}. */
    public boolean hasDue(long nowNanos) {
        return !queue.isEmpty() && queue.headDue() - nowNanos <= 0;
    }

    public boolean isEmpty() {
        return queue.isEmpty();
    }

    public long headDue() {
        return queue.headDue();
    }

    /** The egress device refused the head packet (errno lost to the caller's log): count it and drop it. */
    public void failed() {
        stats.add(Counter.TX_ERRORS, 1);
        queue.pop();
        stats.set(Counter.QUEUE_DEPTH, queue.size());
        stats.set(Counter.QUEUE_BYTES, queue.bytes());
    }

    /** The head packet left at {@code departedNanos}: records how late that was and releases it. */
    public void departed(long departedNanos) {
        stats.recordDelayError(departedNanos - queue.headDue());
        stats.add(Counter.TX_PACKETS, 1);
        stats.add(Counter.TX_BYTES, queue.headLength());
        queue.pop();
        stats.set(Counter.QUEUE_DEPTH, queue.size());
        stats.set(Counter.QUEUE_BYTES, queue.bytes());
    }
}
