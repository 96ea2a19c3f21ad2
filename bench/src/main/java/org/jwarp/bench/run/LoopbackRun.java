package org.jwarp.bench.run;

import java.util.Arrays;
import java.util.List;
import org.jwarp.bench.perf.ResultRow;
import org.jwarp.bench.perf.Settings;
import org.jwarp.bench.perf.TestKind;
import org.jwarp.bench.perf.TransportKind;
import org.jwarp.bench.transport.jwarp.JwarpOptions;

/**
 * One loopback measurement through the perf workloads — the same driver, loop, warm-up and
 * verification for jwarp and for the sockets baselines — and the statistics of repeated ones. What
 * {@code jwarp demo} and the path benchmarks run.
 */
public final class LoopbackRun {

    /** Latency rounds of one run. */
    public static final long LAT_ROUNDS = 20_000;

    private LoopbackRun() {
    }

    /**
     * Runs {@code test} at {@code size} over {@code transport} on loopback: latency for
     * {@code rounds} round trips, bandwidth for {@code millis} (send queue 128, one completion per
     * 100), one QP, data verified.
     */
    public static ResultRow run(TestKind test, TransportKind transport, int size, long rounds, long millis,
                                JwarpOptions jwarp, Placement placement) {
        return run(test, transport, size, rounds, millis, 1, jwarp, placement);
    }

    /**
     * {@link #run(TestKind, TransportKind, int, long, long, JwarpOptions, Placement)}, a bandwidth
     * test posting its work requests in lists of {@code postList} (one doorbell each); a sockets
     * baseline writes each message on its own whatever the list.
     */
    public static ResultRow run(TestKind test, TransportKind transport, int size, long rounds, long millis,
                                int postList, JwarpOptions jwarp, Placement placement) {
        boolean lat = test.isLatency();
        int tx = lat ? 1 : 128;
        int outs = 16;
        int mod = lat ? 1 : Math.min(100, test.verb().isRequestResponse() ? Math.min(tx, outs) : tx);
        Settings s = new Settings(test, transport, false, size, lat ? rounds : 5000, lat, lat ? 0 : millis, tx,
                lat ? 16 : 512, lat ? 64 : 0, false, lat ? 1 : postList, mod, 1, outs).check();
        PerfRunner.Outcome o = PerfRunner.loopback(s, jwarp, 0, placement, new PerfRunner.Listener() {
            @Override
            public void connected(Settings settings, List<String> description) {
            }

            @Override
            public void row(ResultRow row) {
            }
        });
        return o.rows().getFirst();
    }

    /** The figure of a row: typical one-way latency in µs, or average bandwidth in MB/s (2^20). */
    public static double figure(ResultRow row) {
        return row.test().isLatency() ? row.latency().typical() : row.bwAverage() / (1 << 20);
    }

    /**
     * CPU time of one side's application thread per KiB moved (ns): its share of a CPU over the
     * run, at the rate the measuring (client) side saw.
     */
    public static double appCpuNanosPerKiB(ResultRow row, boolean server) {
        var rate = row.client();
        var side = server ? row.server() : row.client();
        double bytesPerNano = (double) rate.bytes() / rate.elapsedNanos();
        double cpuShare = (double) side.appCpuNanos() / side.cpuWallNanos();
        return cpuShare / bytesPerNano * 1024;
    }

    /** Gigabits per second of a bandwidth row. */
    public static double gbps(ResultRow row) {
        return row.bwAverage() * 8 / 1e9;
    }

    /** Median and quartiles of some runs' figures. */
    public record Spread(double median, double lower, double upper) {

        public static Spread of(double[] xs) {
            double[] s = xs.clone();
            Arrays.sort(s);
            return new Spread(s[s.length / 2], s[s.length / 4], s[(3 * s.length) / 4]);
        }

        /** "median [lower-upper]", each with {@code decimals} decimals. */
        public String format(int decimals) {
            String f = "%." + decimals + "f";
            return String.format(java.util.Locale.ROOT, f + " [" + f + "-" + f + "]", median, lower, upper);
        }

        @Override
        public String toString() {
            return format(2);
        }
    }
}
