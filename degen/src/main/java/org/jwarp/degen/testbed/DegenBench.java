package org.jwarp.degen.testbed;

import java.io.IOException;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.HdrHistogram.Histogram;
import org.jwarp.degen.LinkParams;
import org.jwarp.degen.RouterTuning;
import org.jwarp.degen.StatsSnapshot;
import org.jwarp.degen.DirectionStats.Counter;

/**
 * The figures of the degen issue, measured on this machine (a benchmark, not a test):
 * <ol>
 *   <li>delay error at 0, 1 and 10 ms: degen's own (due time to hand-over, from its statistics)
 *       on an idle link (a TCP ping-pong) and under a bulk TCP transfer, and the outside view —
 *       the ping-pong RTT minus the RTT at 0 ms minus 2 × delay;</li>
 *   <li>rate accuracy at 100 Mb/s and 1 Gb/s, degen against tbf, both counting 14 bytes of
 *       Ethernet header per packet so that they shape the same thing;</li>
 *   <li>forwarding throughput with no delay and no limit, degen against a plain veth pair.</li>
 * </ol>
 * Each figure is the median of {@code repeat} runs, each run on a freshly brought-up testbed.
 */
public final class DegenBench {

    private static final long MS = 1_000_000L;
    private static final int PORT = 5201;

    private final Testbed tb;
    private final String cpus;
    private final int repeat;
    private final long bulkNanos;
    private final Consumer<String> out;
    private final RouterTuning tuning;
    /** The rate of the second bulk phase: below degen's forwarding capacity, so the link, not the router, is the bottleneck. */
    private static final long LIMITED_RATE = 500_000_000L;

    public DegenBench(Testbed tb, String cpus, int repeat, long bulkNanos, RouterTuning tuning, Consumer<String> out) {
        this.tuning = tuning;
        this.tb = tb;
        this.cpus = cpus;
        this.repeat = repeat;
        this.bulkNanos = bulkNanos;
        this.out = out;
    }

    public void run(List<String> parts) throws IOException {
        out.accept("degen bench: " + repeat + " runs per figure, medians; degen process " + (cpus == null ? "not pinned" : "pinned with taskset -c " + cpus)
                + "; probe threads (client and server) unpinned; " + Runtime.getRuntime().availableProcessors() + " CPUs");
        for (String part : parts) {
            switch (part) {
                case "delay" -> delay();
                case "rate" -> rate();
                case "throughput" -> throughput();
                default -> throw new IllegalArgumentException("unknown bench part '" + part + "' (delay, rate, throughput)");
            }
        }
    }

    // ---- delay error ----

    private void delay() throws IOException {
        out.accept("");
        out.accept("## Delay error (degen's own: hand-over minus due time, both directions; outside: ping-pong RTT - RTT(0) - 2 x delay)");
        out.accept("router: " + tuning + "; 'bulk' = unlimited rate (TCP saturates degen itself); 'bulk@500M' = 500 Mb/s link, below degen's capacity");
        out.accept("| delay | idle p50 | idle p99 | idle max | bulk p50 | bulk p99 | bulk max | bulk goodput | bulk@500M p50 | bulk@500M p99 | bulk@500M max | RTT p50 | outside excess p50 | outside excess p99 |");
        out.accept("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|");
        double[] baseP50 = null;
        double[] baseP99 = null;
        for (long d : new long[] {0, 1 * MS, 10 * MS}) {
            double[][] f = new double[12][repeat];
            for (int r = 0; r < repeat; r++) {
                LinkParams p = LinkParams.passThrough().withDelay(d);
                up(Emulator.DEGEN, p, 1500);
                try {
                    int pings = (int) Math.min(2000, 4_000 * MS / (2 * d + 100_000));
                    NetProbe.pingPong(nsA(), nsB(), addrB(), PORT, 0, Math.max(50, pings / 4), 64);
                    StatsSnapshot s0 = freshStats();
                    Histogram rtt = NetProbe.pingPong(nsA(), nsB(), addrB(), PORT + 1, 0, pings, 64);
                    StatsSnapshot s1 = freshStats();
                    NetProbe.Bulk bulk = NetProbe.bulk(nsA(), nsB(), addrB(), PORT + 2, 500 * MS, bulkNanos);
                    StatsSnapshot s2 = freshStats();
                    Histogram idle = errors(s1, s0);
                    Histogram busy = errors(s2, s1);
                    f[0][r] = idle.getValueAtPercentile(50);
                    f[1][r] = idle.getValueAtPercentile(99);
                    f[2][r] = idle.getMaxValue();
                    f[3][r] = busy.getValueAtPercentile(50);
                    f[4][r] = busy.getValueAtPercentile(99);
                    f[5][r] = busy.getMaxValue();
                    f[6][r] = bulk.bitsPerSecond();
                    f[7][r] = rtt.getValueAtPercentile(50);
                    f[8][r] = rtt.getValueAtPercentile(99);
                } finally {
                    tb.down();
                }
                up(Emulator.DEGEN, p.withRate(LIMITED_RATE), 1500);
                try {
                    StatsSnapshot s0 = freshStats();
                    NetProbe.bulk(nsA(), nsB(), addrB(), PORT + 3, 500 * MS, bulkNanos);
                    Histogram limited = errors(freshStats(), s0);
                    f[9][r] = limited.getValueAtPercentile(50);
                    f[10][r] = limited.getValueAtPercentile(99);
                    f[11][r] = limited.getMaxValue();
                } finally {
                    tb.down();
                }
            }
            double rttP50 = median(f[7]);
            double rttP99 = median(f[8]);
            if (d == 0) {
                baseP50 = new double[] {rttP50};
                baseP99 = new double[] {rttP99};
            }
            out.accept(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %s | %s | %.0f Mb/s | %s | %s | %s | %s | %s | %s |",
                    ms(d), us(median(f[0])), us(median(f[1])), us(median(f[2])), us(median(f[3])), us(median(f[4])), us(median(f[5])),
                    median(f[6]) / 1e6, us(median(f[9])), us(median(f[10])), us(median(f[11])), us(rttP50), us(rttP50 - baseP50[0] - 2 * d), us(rttP99 - baseP99[0] - 2 * d)));
        }
    }

    private Histogram errors(StatsSnapshot later, StatsSnapshot earlier) {
        Histogram h = new Histogram(org.jwarp.degen.DirectionStats.MAX_TRACKED_NANOS, 3);
        for (String dir : StatsSnapshot.DIRECTIONS) {
            Histogram a = later.delayErrors(dir);
            a.subtract(earlier.delayErrors(dir));
            h.add(a);
        }
        return h;
    }

    // ---- rate accuracy ----

    private void rate() throws IOException {
        out.accept("");
        out.accept("## Rate accuracy (bulk TCP A->B, MTU 1500; target goodput = rate x 1448 / 1514, both shapers counting 14 B of header per packet)");
        out.accept("| rate | emulator | goodput | of target | runs (goodput / target) |");
        out.accept("|---|---|---|---|---|");
        for (long rate : new long[] {100_000_000L, 1_000_000_000L}) {
            double target = rate * 1448.0 / 1514.0;
            for (Emulator e : new Emulator[] {Emulator.DEGEN, Emulator.TBF}) {
                double[] g = new double[repeat];
                for (int r = 0; r < repeat; r++) {
                    up(e, LinkParams.passThrough().withRate(rate).withOverhead(14), 1500);
                    try {
                        g[r] = NetProbe.bulk(nsA(), nsB(), addrB(), PORT, 1000 * MS, bulkNanos).bitsPerSecond();
                    } finally {
                        tb.down();
                    }
                }
                StringBuilder runs = new StringBuilder();
                for (double x : g) {
                    runs.append(String.format(Locale.ROOT, "%.4f ", x / target));
                }
                out.accept(String.format(Locale.ROOT, "| %d Mb/s | %s | %.2f Mb/s | %.2f %% | %s|", rate / 1_000_000, e.label(),
                        median(g) / 1e6, 100 * median(g) / target, runs));
            }
        }
    }

    // ---- forwarding throughput ----

    private void throughput() throws IOException {
        out.accept("");
        out.accept("## Forwarding throughput, no delay, no rate limit (bulk TCP A->B)");
        out.accept("| MTU | path | goodput | packets/s (A->B, from degen's counters) |");
        out.accept("|---|---|---|---|");
        for (int mtu : new int[] {1500, 9000}) {
            for (Emulator e : new Emulator[] {Emulator.DEGEN, Emulator.TBF}) {
                double[] g = new double[repeat];
                double[] pps = new double[repeat];
                for (int r = 0; r < repeat; r++) {
                    up(e, LinkParams.passThrough(), mtu);
                    try {
                        StatsSnapshot s0 = e == Emulator.DEGEN ? freshStats() : null;
                        NetProbe.Bulk b = NetProbe.bulk(nsA(), nsB(), addrB(), PORT, 500 * MS, bulkNanos);
                        g[r] = b.bitsPerSecond();
                        if (s0 != null) {
                            StatsSnapshot s1 = freshStats();
                            double secs = (s1.uptimeNanos() - s0.uptimeNanos()) / 1e9;
                            // Packets over the whole transfer (warm-up included) over the time
                            // between snapshots, which also holds a little idle time: a lower bound.
                            pps[r] = (s1.counter("a2b", Counter.TX_PACKETS) - s0.counter("a2b", Counter.TX_PACKETS)) / secs;
                        }
                    } finally {
                        tb.down();
                    }
                }
                out.accept(String.format(Locale.ROOT, "| %d | %s | %.2f Gb/s | %s |", mtu, e == Emulator.DEGEN ? "degen" : "plain veth",
                        median(g) / 1e9, e == Emulator.DEGEN ? String.format(Locale.ROOT, ">= %.0f k", median(pps) / 1e3) : "-"));
            }
        }
    }

    // ---- helpers ----

    private void up(Emulator e, LinkParams p, int mtu) throws IOException {
        tb.up(e, tb.config(p, p, mtu, mtu, tuning, 1), cpus);
    }

    private String nsA() {
        return tb.topologyFor(1500, 1500).nsA();
    }

    private String nsB() {
        return tb.topologyFor(1500, 1500).nsB();
    }

    private String addrB() {
        return tb.topologyFor(1500, 1500).addrB();
    }

    /** The first statistics published after this call (so they include everything already forwarded). */
    private StatsSnapshot freshStats() throws IOException {
        long deadline = System.nanoTime() + 5_000 * MS;
        StatsSnapshot first = tb.stats().orElse(null);
        long firstUptime = first == null ? -1 : first.uptimeNanos();
        while (System.nanoTime() - deadline < 0) {
            StatsSnapshot s = tb.stats().orElse(null);
            // Two publications later: the one in progress at the call may predate it.
            if (s != null && s.uptimeNanos() > firstUptime + RouterConfig.DEFAULT_STATS_INTERVAL_NANOS) {
                return s;
            }
            LockSupport.parkNanos(20 * MS);
        }
        throw new IOException("degen published no statistics for 5 s; see " + tb.logFile());
    }

    private static double median(double[] v) {
        double[] c = v.clone();
        Arrays.sort(c);
        return c.length % 2 == 1 ? c[c.length / 2] : (c[c.length / 2 - 1] + c[c.length / 2]) / 2;
    }

    private static String us(double nanos) {
        return String.format(Locale.ROOT, "%.1f us", nanos / 1e3);
    }

    private static String ms(long nanos) {
        return nanos == 0 ? "0" : (nanos / MS) + " ms";
    }

}
