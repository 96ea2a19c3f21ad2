package org.jwarp.degen;

import java.lang.foreign.MemorySegment;

/**
 * The packets of one direction that are waiting for their due time: a FIFO of variable-length
 * packets stored back to back in one preallocated native byte ring, with their metadata in
 * parallel primitive arrays. Nothing is allocated per packet and the bytes are never copied: the
 * router reads a packet from the ingress TUN straight into {@link #reserve()}'s slot and writes it
 * to the egress TUN straight from {@link #headAddress()}.
 *
 * <p>FIFO is enough because {@link LinkModel} never lets due times decrease. Single-threaded: owned
 * by the router thread.
 */
public final class PacketQueue {

    private final MemorySegment ring;
    private final long capacity;
    private final int maxPacket;
    private final int mask;
    private final long[] offset;
    private final int[] length;
    private final long[] arrival;
    private final long[] due;
    private final int[] flags;
    private long head;
    private long tail;
    private long writePos;
    private long bytes;

    /**
     * @param ring      native memory for packet bytes (at least {@code 2 * maxPacket})
     * @param slots     most packets held at once; a power of two
     * @param maxPacket the largest packet a reservation must be able to hold
     */
    public PacketQueue(MemorySegment ring, int slots, int maxPacket) {
        if (Integer.bitCount(slots) != 1) {
            throw new IllegalArgumentException("slots must be a power of two, was " + slots);
        }
        if (ring.byteSize() < 2L * maxPacket) {
            throw new IllegalArgumentException("ring of " + ring.byteSize() + " bytes cannot hold two packets of " + maxPacket);
        }
        this.ring = ring;
        this.capacity = ring.byteSize();
        this.maxPacket = maxPacket;
        this.mask = slots - 1;
        this.offset = new long[slots];
        this.length = new int[slots];
        this.arrival = new long[slots];
        this.due = new long[slots];
        this.flags = new int[slots];
    }

    public int maxPacket() {
        return maxPacket;
    }

    /**
     * Finds {@code maxPacket} contiguous free bytes for the next packet.
     *
     * @return the offset in the ring to read the packet into, or -1 if the queue is full
     */
    public long reserve() {
        if (tail - head > mask) {
            return -1;
        }
        if (head == tail) {
            writePos = 0;
            return 0;
        }
        long headOff = offset[(int) head & mask];
        if (writePos >= headOff) {
            if (capacity - writePos >= maxPacket) {
                return writePos;
            }
            // Not enough room at the end: wrap, if the start of the ring is free far enough. The gap
            // is kept strictly larger than a packet so that writePos never catches up with the head
            // (writePos == head offset would be ambiguous between empty and full).
            return headOff > maxPacket ? 0 : -1;
        }
        return headOff - writePos > maxPacket ? writePos : -1;
    }

    /** Appends the packet just written at {@code at} (the value {@link #reserve()} returned). */
    public void commit(long at, int len, long arrivalNanos, long dueNanos) {
        commit(at, len, arrivalNanos, dueNanos, 0);
    }

    /** As {@link #commit(long, int, long, long)}, with the {@link LinkModel#flags()} of the packet. */
    public void commit(long at, int len, long arrivalNanos, long dueNanos, int packetFlags) {
        if (len <= 0 || len > maxPacket) {
            throw new IllegalArgumentException("packet length " + len + " outside 1.." + maxPacket);
        }
        int i = (int) tail & mask;
        offset[i] = at;
        length[i] = len;
        arrival[i] = arrivalNanos;
        due[i] = dueNanos;
        flags[i] = packetFlags;
        writePos = at + len;
        bytes += len;
        tail++;
    }

    public boolean isEmpty() {
        return head == tail;
    }

    public int size() {
        return (int) (tail - head);
    }

    /** Bytes of the packets held. */
    public long bytes() {
        return bytes;
    }

    public long headDue() {
        return due[(int) head & mask];
    }

    /** The head packet's {@link LinkModel#flags()}. */
    public int headFlags() {
        return flags[(int) head & mask];
    }

    /** Clears the head packet's flags (its duplicate has been sent). */
    public void clearHeadFlags() {
        flags[(int) head & mask] = 0;
    }

    public long headArrival() {
        return arrival[(int) head & mask];
    }

    public int headLength() {
        return length[(int) head & mask];
    }

    public long headOffset() {
        return offset[(int) head & mask];
    }

    /** Native address of the head packet's first byte. */
    public long headAddress() {
        return ring.address() + headOffset();
    }

    /** Native address of a ring offset returned by {@link #reserve()}. */
    public long addressOf(long at) {
        return ring.address() + at;
    }

    public MemorySegment ring() {
        return ring;
    }

    public void pop() {
        if (head == tail) {
            throw new IllegalStateException("pop on an empty packet queue");
        }
        bytes -= length[(int) head & mask];
        head++;
    }
}
