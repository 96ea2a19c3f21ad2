package org.jwarp.degen;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.jwarp.degen.DirectionStats.Counter;

/**
 * One direction of the emulator without any I/O: packets are offered with their arrival time,
 * held in a {@link PacketQueue} and released when due by the {@link LinkModel}. The router calls
 * it with real times; tests call it with made-up ones, so ordering, burst handling, the rate limit,
 * jitter and loss are checked deterministically. Single-threaded (the router thread owns it),
 * except {@link #cut}, which any thread may call.
 *
 * <p>What leaves next is {@link #nextAddress()}/{@link #nextLength()}: usually the queue's head;
 * a packet the model marked {@link LinkModel#REORDER} is copied aside when it is due and leaves
 * right after the next packet (or {@link LinkModel#REORDER_HOLD_NANOS} after its due time if none
 * comes), one marked {@link LinkModel#DUPLICATE} is sent twice before it is released. Only
 * reordered packets are copied, once, into a preallocated buffer.
 */
public final class DelayLine {

    /** Outcome of {@link #offer}: the packet was queued. */
    public static final int QUEUED = 0;
    /** The packet is larger than the egress MTU (degen does not fragment or send ICMP). */
    public static final int DROPPED_MTU = 3;
    /** The link is down ({@link #cut}): every packet offered is dropped. */
    public static final int DROPPED_DOWN = 4;

    private final LinkModel model;
    private final PacketQueue queue;
    private final DirectionStats stats;
    private final int egressMtu;
    /** Where a reordered packet waits; null if the model never reorders. */
    private final MemorySegment hold;
    private boolean held;
    private int heldLength;
    private long heldDue;
    /** A packet has left since the held one was put aside: the held one goes next. */
    private boolean overtaken;
    /** The packet {@link #hasDue} chose is the held one rather than the queue's head. */
    private boolean sendingHeld;
    private volatile boolean everCut;
    private volatile long downUntil;

    /** A delay line whose reorder buffer (if its model reorders) is allocated here. */
    public DelayLine(LinkModel model, PacketQueue queue, DirectionStats stats, int egressMtu) {
        this(model, queue, stats, egressMtu,
                model.params().reorder() > 0 ? Arena.ofAuto().allocate(queue.maxPacket(), 64) : null);
    }

    /** @param hold at least {@code queue.maxPacket()} bytes for a reordered packet (unused without reordering) */
    public DelayLine(LinkModel model, PacketQueue queue, DirectionStats stats, int egressMtu, MemorySegment hold) {
        if (model.params().reorder() > 0 && (hold == null || hold.byteSize() < queue.maxPacket())) {
            throw new IllegalArgumentException("a reordering link needs a hold buffer of " + queue.maxPacket() + " bytes");
        }
        this.model = model;
        this.queue = queue;
        this.stats = stats;
        this.egressMtu = egressMtu;
        this.hold = hold;
    }

    /**
     * Takes the link down until {@code untilNanos} (the router's clock): packets that reach it
     * meanwhile are dropped; those already on it still arrive. Any thread.
     */
    public void cut(long untilNanos) {
        downUntil = untilNanos;
        everCut = true;
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
        if (everCut && arrivalNanos - downUntil < 0) {
            stats.add(Counter.DROP_DOWN, 1);
            return DROPPED_DOWN;
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
        queue.commit(at, len, arrivalNanos, model.due(), model.flags());
        stats.set(Counter.QUEUE_DEPTH, queue.size());
        stats.set(Counter.QUEUE_BYTES, queue.bytes());
        stats.max(Counter.QUEUE_DEPTH_MAX, queue.size());
        return QUEUED;
    }

    /**
     * True if a packet is due at {@code nowNanos}; then {@link #nextAddress()} and
     * {@link #nextLength()} are that packet, and {@link #departed} or {@link #failed} releases it.
     */
    public boolean hasDue(long nowNanos) {
        if (held && (overtaken || heldDue - nowNanos <= 0)) {
            sendingHeld = true;
            return true;
        }
        sendingHeld = false;
        while (!queue.isEmpty() && queue.headDue() - nowNanos <= 0) {
            if (!held && (queue.headFlags() & LinkModel.REORDER) != 0) {
                holdHead();
                continue;
            }
            return true;
        }
        return false;
    }

    private void holdHead() {
        heldLength = queue.headLength();
        MemorySegment.copy(queue.ring(), queue.headOffset(), hold, 0, heldLength);
        heldDue = queue.headDue() + LinkModel.REORDER_HOLD_NANOS;
        held = true;
        overtaken = false;
        stats.add(Counter.REORDERED, 1);
        release();
    }

    /** Native address of the packet {@link #hasDue} found due. */
    public long nextAddress() {
        return sendingHeld ? hold.address() : queue.headAddress();
    }

    /** Length of the packet {@link #hasDue} found due. */
    public int nextLength() {
        return sendingHeld ? heldLength : queue.headLength();
    }

    public boolean isEmpty() {
        return queue.isEmpty() && !held;
    }

    /** When the next packet is due (only if not {@link #isEmpty()}). */
    public long headDue() {
        if (!held) {
            return queue.headDue();
        }
        if (overtaken || queue.isEmpty()) {
            return heldDue;
        }
        return queue.headDue() - heldDue < 0 ? queue.headDue() : heldDue;
    }

    /** The egress device refused the packet (errno lost to the caller's log): count it and drop it. */
    public void failed() {
        stats.add(Counter.TX_ERRORS, 1);
        if (sendingHeld) {
            releaseHeld();
            return;
        }
        release();
        if (held) {
            overtaken = true;
        }
    }

    /** The packet left at {@code departedNanos}: records how late that was and releases it (a duplicate goes once more). */
    public void departed(long departedNanos) {
        if (sendingHeld) {
            // late on purpose: not the emulator's own lateness, so not in the delay-error histogram
            stats.add(Counter.TX_PACKETS, 1);
            stats.add(Counter.TX_BYTES, heldLength);
            releaseHeld();
            return;
        }
        stats.recordDelayError(departedNanos - queue.headDue());
        stats.add(Counter.TX_PACKETS, 1);
        stats.add(Counter.TX_BYTES, queue.headLength());
        if ((queue.headFlags() & LinkModel.DUPLICATE) != 0) {
            queue.clearHeadFlags(); // still due: it leaves again next
            stats.add(Counter.DUPLICATED, 1);
        } else {
            release();
        }
        if (held) {
            overtaken = true;
        }
    }

    private void releaseHeld() {
        held = false;
        overtaken = false;
        sendingHeld = false;
    }

    private void release() {
        queue.pop();
        stats.set(Counter.QUEUE_DEPTH, queue.size());
        stats.set(Counter.QUEUE_BYTES, queue.bytes());
    }
}
