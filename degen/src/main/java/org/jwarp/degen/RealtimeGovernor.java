package org.jwarp.degen;

/**
 * Decides, window by window, whether the router thread may stay real-time. SCHED_FIFO makes timed
 * wake-ups prompt on a busy machine, but the kernel throttles real-time threads that run more than
 * 950 ms of every second ({@code sched_rt_runtime_us}) by stopping them for the rest of it: a
 * 40-50 ms freeze, measured here under a saturating transfer. So when the router has been busy
 * (awake, spinning or forwarding) for more than 90 % of a window, it drops to SCHED_OTHER, where a
 * busy thread loses nothing by being normal; it returns to SCHED_FIFO once it is busy less than
 * 70 % of a window. Pure: the router feeds it the time it spent asleep.
 */
public final class RealtimeGovernor {

    public static final long WINDOW_NANOS = 100_000_000L;
    private static final double DEMOTE_ABOVE = 0.90;
    private static final double PROMOTE_BELOW = 0.70;

    private boolean realtime;
    private long demotions;

    public RealtimeGovernor(boolean startRealtime) {
        this.realtime = startRealtime;
    }

    /** Whether the thread should be real-time for the next window, given how long it slept in the last. */
    public boolean onWindow(long windowNanos, long sleptNanos) {
        double busy = 1.0 - (double) Math.max(0, Math.min(sleptNanos, windowNanos)) / windowNanos;
        if (realtime && busy > DEMOTE_ABOVE) {
            realtime = false;
            demotions++;
        } else if (!realtime && busy < PROMOTE_BELOW) {
            realtime = true;
        }
        return realtime;
    }

    public boolean realtime() {
        return realtime;
    }

    public long demotions() {
        return demotions;
    }
}
