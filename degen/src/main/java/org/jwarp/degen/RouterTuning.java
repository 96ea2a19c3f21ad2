package org.jwarp.degen;

/**
 * How the router thread waits for due times.
 *
 * @param spinMinNanos     the least it spins before a due time
 * @param spinMaxNanos     the most: the adaptive margin ({@link WakeMargin}) moves between the two
 * @param realtimePriority SCHED_FIFO priority of the router thread, 0 for none
 * @param busyPoll         never sleep: spin on both devices all the time. Arrivals are then
 *                         timestamped within a microsecond instead of after a wake-up (tens of
 *                         µs on a VM), at the price of a whole core
 */
public record RouterTuning(long spinMinNanos, long spinMaxNanos, int realtimePriority, boolean busyPoll) {

    public static final RouterTuning DEFAULT = new RouterTuning(20_000L, 500_000L, 10, false);

    public RouterTuning {
        if (spinMinNanos < 0 || spinMaxNanos < spinMinNanos) {
            throw new IllegalArgumentException("spin bounds must satisfy 0 <= min <= max");
        }
        if (realtimePriority < 0 || realtimePriority > 99) {
            throw new IllegalArgumentException("real-time priority must be 0 (off) or 1..99, was " + realtimePriority);
        }
    }

    public WakeMargin newMargin() {
        return new WakeMargin(spinMinNanos, spinMaxNanos);
    }
}
