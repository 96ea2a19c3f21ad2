package org.jwarp.degen;

/**
 * How long before a due time the router must stop sleeping and start spinning. The right value is
 * the machine's timed wake-up latency, which varies a lot: measured on this project's 2-vCPU VM, a
 * ppoll of 100 µs came back 45 µs late at the median and 100 µs at p99 with a 1 ns timer slack,
 * twice that with the default 50 µs slack, and milliseconds late under CFS when other processes
 * ran. So the margin is measured rather than guessed: every timed wake-up reports how late it was,
 * and the margin follows a high quantile of those reports with an asymmetric moving average — a
 * later wake-up pulls it up by 1/4 of the gap, an earlier one down by 1/256, which settles near
 * the 89th percentile of uniform noise (where (1-q)/q = sqrt(1/64)). Not the maximum: one stray millisecond (a JIT or GC thread, a neighbour) would
 * otherwise make the router spin for every packet after it, and a router that always spins is one
 * the kernel eventually throttles. Clamped to [min, max].
 *
 * <p>Pure and single-threaded (owned by the router thread), so it is unit tested with made-up
 * latencies.
 */
public final class WakeMargin {

    private final long min;
    private final long max;
    private long estimate;

    public WakeMargin(long minNanos, long maxNanos) {
        if (minNanos < 0 || maxNanos < minNanos) {
            throw new IllegalArgumentException("need 0 <= min <= max, got " + minNanos + ", " + maxNanos);
        }
        this.min = minNanos;
        this.max = maxNanos;
        this.estimate = maxNanos; // start cautious: spin long until the machine has shown how it wakes
    }

    /** Starts over from a measured estimate (the router's start-up calibration). */
    public void reset(long estimateNanos) {
        this.estimate = Math.max(0, estimateNanos);
    }

    /** The current margin, in [min, max]. */
    public long margin() {
        return Math.max(min, Math.min(max, estimate));
    }

    /** A timed sleep came back {@code lateNanos} after it was asked to. */
    public void onWake(long lateNanos) {
        long late = Math.max(0, Math.min(lateNanos, max));
        if (late >= estimate) {
            estimate += (late - estimate) >> 2;
        } else {
            estimate -= (estimate - late) >> 8;
        }
    }
}
