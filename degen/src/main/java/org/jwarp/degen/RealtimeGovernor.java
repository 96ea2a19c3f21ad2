package org.jwarp.degen;

/**
 * Keeps the router thread real-time without letting the kernel throttle it. SCHED_FIFO makes
 * timed wake-ups prompt when other processes load the machine (under CFS the router waited tens
 * to hundreds of milliseconds for a CPU, measured here with a neighbour's build running), but the
 * kernel freezes a real-time thread that runs more than 950 ms of a second
 * ({@code sched_rt_runtime_us}) for the rest of it, 50 ms, and it does not care whether the
 * thread worked or spun: a router forwarding a steady stream that spins its minimum margin before
 * every packet runs 95 % of the time and is frozen once a second.
 *
 * <p>Window by window (100 ms) the router reports how long it slept and how long it spun waiting
 * for a due time. Spinning is the first thing to give up, one {@link Spin} level per window: when
 * the thread was on the CPU for more than 75 % of a window and part of it was spin, the margin
 * goes from adaptive to its minimum, and then to none (timed wake-ups are then up to a wake-up
 * latency late, far better than a freeze); it comes back a level per window once the thread is on
 * the CPU less than half of a window. Only when forwarding itself fills more than 75 % of a
 * window, or the thread is on the CPU more than 90 % of it without spinning at all, does it drop
 * to SCHED_OTHER (a saturated router is busy anyway), and it returns to SCHED_FIFO once it is
 * busy less than half of a window. Pure: the router feeds it times.
 */
public final class RealtimeGovernor {

    /** How much of its margin the router may spin before a due time. */
    public enum Spin {
        /** The measured wake-up latency ({@link WakeMargin}). */
        ADAPTIVE,
        /** The configured minimum margin. */
        MINIMUM,
        /** None: sleep until the due time itself. */
        NONE
    }

    public static final long WINDOW_NANOS = 100_000_000L;
    private static final double BUSY_LIMIT = 0.75;
    private static final double PROMOTE_BELOW = 0.50;
    /** Below the kernel's 95 %, with room for a window's measurement error. */
    private static final double THROTTLE_GUARD = 0.90;

    private boolean realtime;
    private Spin spin = Spin.ADAPTIVE;
    private long demotions;

    public RealtimeGovernor(boolean startRealtime) {
        this.realtime = startRealtime;
    }

    /**
     * Ends a window in which the thread slept {@code sleptNanos} and spun {@code spunNanos}; decides
     * the next window's scheduling ({@link #realtime()}) and spinning ({@link #spin()}).
     */
    public void onWindow(long windowNanos, long sleptNanos, long spunNanos) {
        double onCpu = 1.0 - fraction(sleptNanos, windowNanos);
        double working = onCpu - fraction(spunNanos, windowNanos);
        boolean nothingLeftToGiveUp = spin == Spin.NONE;
        if (onCpu > BUSY_LIMIT && spunNanos > 0 && spin != Spin.NONE) {
            spin = Spin.values()[spin.ordinal() + 1];
        } else if (onCpu < PROMOTE_BELOW && spin != Spin.ADAPTIVE) {
            spin = Spin.values()[spin.ordinal() - 1];
        }
        if (realtime && (working > BUSY_LIMIT || onCpu > THROTTLE_GUARD && nothingLeftToGiveUp)) {
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

    public Spin spin() {
        return spin;
    }

    public long demotions() {
        return demotions;
    }
}
