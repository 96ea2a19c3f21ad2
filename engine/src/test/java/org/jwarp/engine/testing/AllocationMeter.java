package org.jwarp.engine.testing;

import java.lang.management.ManagementFactory;

/**
 * Allocated bytes of the calling thread ({@code com.sun.management.ThreadMXBean}), for the
 * docs/design.md rule-3 tests: the data path allocates nothing after warm-up. {@link #calibrate()}
 * first proves that the meter sees a small allocation, so a "0 bytes" result means something.
 */
public final class AllocationMeter {

    /** Where the calibration allocation escapes to, so that escape analysis cannot remove it. */
    public static volatile Object sink;

    private static final com.sun.management.ThreadMXBean MX =
            (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();

    private AllocationMeter() {
    }

    /** Bytes the calling thread has allocated so far. */
    public static long allocatedBytes() {
        return MX.getCurrentThreadAllocatedBytes();
    }

    /**
     * Allocates a 64-byte array and returns how many bytes the meter saw (at least 64 if it works).
     *
     * @throws IllegalStateException if the JVM does not measure per-thread allocation
     */
    public static long calibrate() {
        if (!MX.isThreadAllocatedMemorySupported() || !MX.isThreadAllocatedMemoryEnabled()) {
            throw new IllegalStateException("per-thread allocation measurement is unavailable in this JVM");
        }
        long before = allocatedBytes();
        sink = new byte[64];
        long seen = allocatedBytes() - before;
        sink = null;
        return seen;
    }
}
