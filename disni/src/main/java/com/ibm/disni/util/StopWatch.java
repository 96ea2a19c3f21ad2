package com.ibm.disni.util;

/**
 * Accumulated wall-clock time in milliseconds, as DiSNI's own: {@link #start()} opens an interval,
 * {@link #stop()} adds it to the total, and {@link #getExecutionTime()} closes an open interval
 * before it returns the total (DaRPC's client starts the watch, runs its loop, and reads it once,
 * dividing by 1,000 for seconds). {@link #reset()} clears the total.
 */
public class StopWatch {
    private long startedAt;
    private long total;

    public StopWatch() {
        reset();
    }

    public void start() {
        startedAt = System.currentTimeMillis();
    }

    /** Adds the open interval, if any, to the total. */
    public void stop() {
        if (startedAt > 0) {
            total += System.currentTimeMillis() - startedAt;
            startedAt = 0;
        }
    }

    public void reset() {
        startedAt = 0;
        total = 0;
    }

    /** The total in milliseconds, after closing an open interval. */
    public long getExecutionTime() {
        stop();
        return total;
    }
}
