package org.jwarp.degen;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import org.HdrHistogram.Histogram;
import org.HdrHistogram.Recorder;

/**
 * Counters of one direction. Written only by the router thread, read by the stats reporter: each
 * counter has a single writer, so a release store of (plain read + 1) suffices and no lock or
 * atomic read-modify-write sits on the packet path. The delay error (actual departure minus due
 * time) goes to an HdrHistogram {@link Recorder}, whose recording is wait-free and allocation-free
 * and whose interval histograms the reporter takes without stopping the writer.
 */
public final class DirectionStats {

    /** Counter indices; the names are stable (they are the keys of the stats file). */
    public enum Counter {
        RX_PACKETS, RX_BYTES, TX_PACKETS, TX_BYTES, DROP_LOSS, DROP_QUEUE, DROP_MTU, DROP_FULL, TX_ERRORS, QUEUE_DEPTH, QUEUE_DEPTH_MAX, QUEUE_BYTES,
        DROP_DOWN, REORDERED, DUPLICATED;

        public String key() {
            return name().toLowerCase(java.util.Locale.ROOT);
        }
    }

    private static final VarHandle SLOT = MethodHandles.arrayElementVarHandle(long[].class);
    /** Errors above 10 s are clamped; nothing in degen is meant to be that late. */
    public static final long MAX_TRACKED_NANOS = 10_000_000_000L;

    private final String name;
    private final long[] counters = new long[Counter.values().length];
    private final Recorder delayError = new Recorder(MAX_TRACKED_NANOS, 3);

    public DirectionStats(String name) {
        this.name = name;
    }

    /** "a2b" or "b2a". */
    public String name() {
        return name;
    }

    // ---- writer side (router thread only) ----

    public void add(Counter c, long delta) {
        int i = c.ordinal();
        SLOT.setRelease(counters, i, counters[i] + delta);
    }

    public void set(Counter c, long value) {
        SLOT.setRelease(counters, c.ordinal(), value);
    }

    public void max(Counter c, long value) {
        int i = c.ordinal();
        if (value > counters[i]) {
            SLOT.setRelease(counters, i, value);
        }
    }

    /** Records how late a packet left: actual departure minus its due time, in nanoseconds. */
    public void recordDelayError(long nanos) {
        delayError.recordValue(Math.min(Math.max(nanos, 0), MAX_TRACKED_NANOS));
    }

    // ---- reader side (any thread) ----

    public long get(Counter c) {
        return (long) SLOT.getAcquire(counters, c.ordinal());
    }

    /** The delay errors recorded since the last call (reader side: one reader thread at a time). */
    public Histogram takeDelayErrors(Histogram recycle) {
        return delayError.getIntervalHistogram(recycle);
    }
}
