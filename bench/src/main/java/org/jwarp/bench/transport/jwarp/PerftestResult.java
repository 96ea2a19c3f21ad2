package org.jwarp.bench.transport.jwarp;

import java.util.Arrays;
import java.util.Locale;
import org.jwarp.bench.perf.Settings;

/**
 * One side's result of a run against perftest, in perftest's units and columns: bandwidth in
 * MB/s of 2^20 bytes and millions of messages per second; latency in µs (half a round trip for
 * WRITE and SEND, the whole request for READ, as perftest).
 *
 * @param measured whether this side timed the run (a passive server did not)
 */
public record PerftestResult(boolean latency, boolean measured, int size, long iterations, double peakMBps,
                             double averageMBps, double messageRateMpps, double minUs, double maxUs,
                             double typicalUs, double averageUs, double stdevUs, double p99Us, double p999Us) {

    static PerftestResult bandwidth(Settings s, int size, long messages, double peak, double average, double rate) {
        return new PerftestResult(false, true, size, messages, peak, average, rate, 0, 0, 0, 0, 0, 0, 0);
    }

    /** {@code messages} of {@code size} bytes in {@code nanos}; perftest's peak is shown as the average. */
    static PerftestResult bandwidth(Settings s, long messages, long nanos) {
        double seconds = nanos / 1e9;
        double mbps = messages * (double) s.size() / seconds / (1 << 20);
        return bandwidth(s, s.size(), messages, mbps, mbps, messages / seconds / 1e6);
    }

    /** Latency samples in nanoseconds. */
    static PerftestResult latency(Settings s, long[] nanos) {
        long[] v = nanos.clone();
        Arrays.sort(v);
        int n = v.length;
        double sum = 0;
        for (long x : v) {
            sum += x;
        }
        double avg = sum / n;
        double var = 0;
        for (long x : v) {
            var += (x - avg) * (x - avg);
        }
        return new PerftestResult(true, true, s.size(), n, 0, 0, 0, v[0] / 1e3, v[n - 1] / 1e3, v[n / 2] / 1e3,
                avg / 1e3, Math.sqrt(var / n) / 1e3, v[Math.min(n - 1, (int) Math.ceil(n * 0.99) - 1)] / 1e3,
                v[Math.min(n - 1, (int) Math.ceil(n * 0.999) - 1)] / 1e3);
    }

    /** A server whose application had no part in the run (WRITE and READ: the engine served it). */
    static PerftestResult passive(Settings s) {
        return new PerftestResult(s.test().isLatency(), false, s.size(), s.iterations(), 0, 0, 0, 0, 0, 0, 0, 0, 0, 0);
    }

    /** perftest's column heads. */
    public String header() {
        return latency ? " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]    "
                + "t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec]"
                : " #bytes     #iterations    BW peak[MB/sec]    BW average[MB/sec]   MsgRate[Mpps]";
    }

    /** perftest's row, or what a passive side can say. */
    public String row() {
        if (!measured) {
            return String.format(Locale.ROOT, " %-7d %-10d  (the peer's engine served this side; the client timed it)",
                    size, iterations);
        }
        return latency
                ? String.format(Locale.ROOT, " %-7d %-10d %-14.2f %-14.2f %-16.2f %-14.2f %-16.2f %-22.2f %.2f", size,
                        iterations, minUs, maxUs, typicalUs, averageUs, stdevUs, p99Us, p999Us)
                : String.format(Locale.ROOT, " %-10d %-14d %-18.2f %-20.2f %.6f", size, iterations, peakMBps,
                        averageMBps, messageRateMpps);
    }
}
