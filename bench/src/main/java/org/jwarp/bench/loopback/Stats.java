package org.jwarp.bench.loopback;

import java.util.Arrays;

/** Latency summaries in µs of one-way time (half the round trip), as perftest reports them. */
final class Stats {

    private Stats() {
    }

    /** {min, median, p99, max} of half round trips, in µs. */
    static double[] halfRttMicros(long[] rttNanos) {
        long[] s = rttNanos.clone();
        Arrays.sort(s);
        return new double[] {s[0] / 2e3, s[s.length / 2] / 2e3, s[(int) (s.length * 0.99)] / 2e3, s[s.length - 1] / 2e3};
    }

    static double median(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        return s[s.length / 2];
    }
}
