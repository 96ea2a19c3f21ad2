package org.jwarp.engine.ring;

/** Capacity checks shared by the rings, and the rounding the provider applies before it makes one. */
public final class RingCapacity {

    /** Largest capacity: indexes are masked into an array. */
    public static final int MAX = 1 << 30;

    /** Least capacity of an {@link SpscSlotRing} (a work queue). */
    public static final int MIN_SPSC = 1;

    /** Least capacity of an {@link MpscSlotRing} (a completion queue). */
    public static final int MIN_MPSC = 2;

    private RingCapacity() {
    }

    /**
     * The capacity of a ring that holds at least {@code n} slots: the next power of two, and at
     * least {@code min} (as hardware rounds queue sizes up, OFED's {@code ibv_create_cq} and
     * {@code ibv_create_qp} report the actual size back).
     *
     * @throws IllegalArgumentException if {@code n} is above {@link #MAX}
     */
    public static int roundUp(int n, int min) {
        if (n > MAX) {
            throw new IllegalArgumentException("ring capacity must be at most " + MAX + ": " + n);
        }
        int c = n <= 1 ? 1 : Integer.highestOneBit(n - 1) << 1;
        return Math.max(c, min);
    }

    /**
     * @throws IllegalArgumentException unless {@code capacity} is a power of two in {@code min..MAX}
     */
    static int check(int capacity, int min) {
        if (capacity < min || capacity > MAX || Integer.bitCount(capacity) != 1) {
            throw new IllegalArgumentException("ring capacity must be a power of two in " + min + ".." + MAX + ": "
                    + capacity);
        }
        return capacity;
    }
}
