package org.jwarp.engine.ring;

/** Capacity checks shared by the rings. */
final class RingCapacity {

    /** Largest capacity: indexes are masked into an array. */
    static final int MAX = 1 << 30;

    private RingCapacity() {
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
