package org.jwarp.bench.perf;

import java.nio.ByteBuffer;
import org.HdrHistogram.Histogram;

/**
 * perftest's latency columns, in µs: {@code t_min t_max t_typical t_avg t_stdev 99% 99.9%}
 * ({@code t_typical} is the median). Half the round trip for ping-pong tests, the whole round trip
 * for READ (as perftest reports them).
 */
public record Latency(long count, double min, double max, double typical, double avg, double stdev, double p99,
                      double p999) {

    /** A histogram of round-trip times in ns, 3 significant digits, up to 100 s, preallocated. */
    public static Histogram newHistogram() {
        return new Histogram(100_000_000_000L, 3);
    }

    /** The columns of {@code rttNanos}, each divided by {@code divisor} (2 for half round trips). */
    public static Latency of(Histogram rttNanos, double divisor) {
        double k = 1e3 * divisor;
        return new Latency(rttNanos.getTotalCount(), rttNanos.getMinValue() / k, rttNanos.getMaxValue() / k,
                rttNanos.getValueAtPercentile(50) / k, rttNanos.getMean() / k, rttNanos.getStdDeviation() / k,
                rttNanos.getValueAtPercentile(99) / k, rttNanos.getValueAtPercentile(99.9) / k);
    }

    void writeTo(ByteBuffer b) {
        b.putLong(count);
        for (double d : new double[] {min, max, typical, avg, stdev, p99, p999}) {
            b.putDouble(d);
        }
    }

    static Latency readFrom(ByteBuffer b) {
        return new Latency(b.getLong(), b.getDouble(), b.getDouble(), b.getDouble(), b.getDouble(), b.getDouble(),
                b.getDouble(), b.getDouble());
    }
}
