package com.ibm.disni.util;

/** Elapsed time between start and stop, in nanoseconds. */
public class StopWatch {
    private long start;
    private long elapsed;

    public StopWatch() {
    }

    public void start() {
        start = System.nanoTime();
    }

    public void stop() {
        elapsed = System.nanoTime() - start;
    }

    public void reset() {
        start = 0;
        elapsed = 0;
    }

    /** The nanoseconds between the last {@link #start()} and {@link #stop()}; 0 before the first stop. */
    public long getExecutionTime() {
        return elapsed;
    }
}
