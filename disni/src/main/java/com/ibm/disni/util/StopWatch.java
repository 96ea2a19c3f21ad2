package com.ibm.disni.util;

/**
 * Elapsed time in nanoseconds. Programs read it without stopping the watch (DaRPC's client calls
 * {@link #start()} and then {@link #getExecutionTime()}), so until {@link #stop()} it is the time
 * since the start, and after it the time from start to stop.
 */
public class StopWatch {
    private long start;
    private long stop;
    private boolean stopped;

    public StopWatch() {
    }

    public void start() {
        start = System.nanoTime();
        stopped = false;
    }

    public void stop() {
        stop = System.nanoTime();
        stopped = true;
    }

    public void reset() {
        start = System.nanoTime();
        stopped = false;
    }

    /** Nanoseconds since {@link #start()}, or from start to {@link #stop()} once stopped. */
    public long getExecutionTime() {
        return (stopped ? stop : System.nanoTime()) - start;
    }
}
