package org.jwarp.degen;

/**
 * Keeps the router thread real-time without letting the kernel throttle it. SCHED_FIFO makes
 * timed wake-ups prompt when other processes load the machine (under CFS the router waited tens
 * to hundreds of milliseconds for a CPU, measured here with a neighbour's build running), but the
 * kernel freezes real-time threads that run more than 950 ms of a second
 * ({@code sched_rt_runtime_us}) for the rest of it — 50 ms, also measured.
 *
 * <p>Window by window (100 ms) the router reports how long it slept and how long it spun waiting
 * for a due time. Spinning is the first thing to give up: when the thread was on the CPU for
 * more than 75 % of a window and part of it was spin, the spin margin is capped to its minimum for
 * the next window (timed wake-ups are then up to a wake-up latency late, far better than a
 * freeze). Only when forwarding itself fills more than 75 % of a window does the thread drop to
 * SCHED_OTHER — a saturated router is busy anyway — and it returns to SCHED_FIFO once it is on the
 * CPU less than half of a window. Pure: the router feeds it times.
 */
public final class RealtimeGovernor {

    public static final long WINDOW_NANOS = 100_000_000L;
    private static final double BUSY_LIMIT = 0.75;
    private static final double PROMOTE_BELOW = 0.50;

    private boolean realtime;
    private boolean spinCapped;
    private long demotions;

    public RealtimeGovernor(boolean startRealtime) {
        this.realtime = startRealtime;
    }

    /**
     * Ends a window in which the thread slept {@code sleptNanos} and spun {@code spunNanos}; decides
     * the next window's scheduling ({@link #realtime()}) and spinning ({@link #spinCapped()}).
     */
    public void onWindow(long windowNanos, long sleptNanos, long spunNanos) {
        double onCpu = 1.0 - fraction(sleptNanos, windowNanos);
        double working = onCpu - fraction(spunNanos, windowNanos);
        if (spinCapped) {
            // With spinning capped, onCpu is (almost) all work: uncap once there is room again.
            spinCapped = onCpu > PROMOTE_BELOW;
        } else if (onCpu > BUSY_LIMIT && spunNanos > 0) {
            spinCapped = true;
        }
        if (realtime && working > BUSY_LIMIT) {
            realtime = false;
            demotions++;
        } else if (!realtime && working < PROMOTE_BELOW) {
            realtime = true;
        }
    }

    private static double fraction(long part, long whole) {
        return (double) Math.max(0, Math.min(part, whole)) / whole;
    }

    public boolean realtime() {
        return realtime;
    }

    public boolean spinCapped() {
        return spinCapped;
    }

    public long demotions() {
        return demotions;
    }
}
