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

    /** The time since {@link #start()}, or between start and stop once stopped... as the last measurement. */
    public long getExecutionTime() {
        return start == 0 ? elapsed : System.nanoTime() - start;
    }
}
