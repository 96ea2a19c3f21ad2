package org.jwarp.cli.faults;

import java.util.BitSet;

/**
 * What one flow saw: each work request (or socket message) by its sequence number, how it
 * completed, the bytes checked, and the longest time without progress. Written by the flow's own
 * thread; read after it stopped (or through the volatile progress time).
 */
public final class FlowRecord {

    public final String name;
    private final BitSet seen = new BitSet();
    long posted;
    long ok;
    long flushed;
    long failed;
    long duplicates;
    long bytesVerified;
    String mismatch;
    String error;
    private long errorAt;
    private long lastProgress;
    private long longestGap;
    private long gapStart;
    volatile long progressAt;

    FlowRecord(String name) {
        this.name = name;
    }

    void start(long now) {
        lastProgress = now;
        progressAt = now;
    }

    /** Work request {@code seq} completed with success or not (flushed or another error). */
    void completed(long seq, boolean success, boolean flush, long now) {
        if (seen.get((int) seq)) {
            duplicates++;
        }
        seen.set((int) seq);
        if (success) {
            ok++;
            progress(now);
        } else if (flush) {
            flushed++;
        } else {
            failed++;
        }
    }

    void progress(long now) {
        if (now - lastProgress > longestGap) {
            longestGap = now - lastProgress;
            gapStart = lastProgress;
        }
        lastProgress = now;
        progressAt = now;
    }

    void verified(long bytes) {
        bytesVerified += bytes;
    }

    void mismatch(String what) {
        if (mismatch == null) {
            mismatch = what;
        }
    }

    void error(String what) {
        if (error == null) {
            error = what;
            errorAt = System.nanoTime();
        }
    }

    /** When the first error came (System.nanoTime), or 0. */
    public long errorAtNanos() {
        return errorAt;
    }

    /** Every work request posted completed exactly once (sockets: every message answered once). */
    public boolean exactlyOnce() {
        return duplicates == 0 && seen.cardinality() == posted && seen.nextSetBit((int) posted) < 0;
    }

    public long posted() {
        return posted;
    }

    public long ok() {
        return ok;
    }

    public long flushed() {
        return flushed;
    }

    public long failedOther() {
        return failed;
    }

    public long bytesVerified() {
        return bytesVerified;
    }

    /** The first byte mismatch seen, or null. */
    public String mismatch() {
        return mismatch;
    }

    /** The error that ended the flow, or null if it carried on. */
    public String error() {
        return error;
    }

    /** The longest time between two successful completions (or received messages), in ns. */
    public long longestGapNanos() {
        return longestGap;
    }

    /** When that longest gap began (System.nanoTime). */
    public long gapStartNanos() {
        return gapStart;
    }

    public long lastProgressNanos() {
        return lastProgress;
    }
}
