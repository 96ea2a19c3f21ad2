package org.jwarp.degen;

/**
 * How long before a due time the router must stop sleeping and start spinning. The right value is
 * the machine's timed wake-up latency, which varies a lot: measured on this project's 2-vCPU VM, a
 * ppoll of 100 µs came back 45 µs late at the median and 100 µs at p99 with a 1 ns timer slack,
 * twice that with the default 50 µs slack, and milliseconds late under CFS when other processes
 * ran. So the margin is measured rather than guessed: every timed wake-up reports how late it was,
 * and the margin follows a decaying maximum of those reports — it jumps up at once after a late
 * wake-up and relaxes slowly (1/64 of the gap per wake-up), clamped to [min, max].
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

    /** The current margin, in [min, max]. */
    public long margin() {
        return Math.max(min, Math.min(max, estimate));
    }

    /** A timed sleep came back {@code lateNanos} after it was asked to. */
    public void onWake(long lateNanos) {
        long late = Math.max(0, Math.min(lateNanos, max));
        if (late >= estimate) {
            estimate = late;
        } else {
            estimate -= (estimate - late) >> 6;
        }
    }
}
