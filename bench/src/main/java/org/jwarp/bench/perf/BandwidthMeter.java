package org.jwarp.bench.perf;

/**
 * Completed bytes over time on the measuring side, for perftest's "BW peak" and "BW average".
 *
 * <p>Samples (time, cumulative bytes) are taken when completions are reaped; the array is
 * preallocated and, when full, thinned to every other sample (so a long {@code -D} run keeps an
 * even spread at half the resolution). No allocation while recording.
 *
 * <p>BW peak is the highest rate over any window holding at least a tenth of the bytes and at
 * least {@link #MIN_WINDOW_BYTES} (perftest takes the best rate over any run of iterations; the
 * floor keeps two completions reaped in one poll from reading as an infinite rate, and keeps the
 * first burst into an empty TCP send buffer, which a send's completion does not wait past, from
 * counting as bandwidth). A run shorter than the floor reports its whole rate.
 */
public final class BandwidthMeter {

    private static final int CAPACITY = 1 << 16;
    /** Smallest window of the peak: more than a loopback TCP send buffer holds. */
    public static final long MIN_WINDOW_BYTES = 16L << 20;

    private final long[] times = new long[CAPACITY];
    private final long[] bytes = new long[CAPACITY];
    private int n;
    private int stride = 1;
    private int skipped;
    private long startNanos;
    private long total;

    /** Starts the clock: the first post. */
    public void start(long nowNanos) {
        n = 0;
        stride = 1;
        skipped = 0;
        total = 0;
        startNanos = nowNanos;
        times[n] = nowNanos;
        bytes[n++] = 0;
    }

    public long startNanos() {
        return startNanos;
    }

    /** {@code completed} more bytes completed at {@code nowNanos}. */
    public void completed(long nowNanos, long completed) {
        total += completed;
        if (++skipped < stride) {
            return;
        }
        skipped = 0;
        if (n == CAPACITY) {
            for (int i = 0; i < CAPACITY / 2; i++) {
                times[i] = times[2 * i];
                bytes[i] = bytes[2 * i];
            }
            n = CAPACITY / 2;
            stride *= 2;
        }
        times[n] = nowNanos;
        bytes[n++] = total;
    }

    public long totalBytes() {
        return total;
    }

    /** Highest rate in bytes/s over a window as the class comment says; 0 if there is nothing. */
    public double peakBytesPerSecond() {
        if (n < 2 || bytes[n - 1] == 0) {
            return 0;
        }
        long minBytes = Math.min(bytes[n - 1], Math.max(MIN_WINDOW_BYTES, bytes[n - 1] / 10));
        double best = 0;
        int j = 0;
        for (int k = 1; k < n; k++) {
            // the latest j whose window [j, k] still holds minBytes
            while (j + 1 < k && bytes[k] - bytes[j + 1] >= minBytes) {
                j++;
            }
            long db = bytes[k] - bytes[j];
            long dt = times[k] - times[j];
            if (db >= minBytes && dt > 0) {
                best = Math.max(best, db * 1e9 / dt);
            }
        }
        return best;
    }
}
