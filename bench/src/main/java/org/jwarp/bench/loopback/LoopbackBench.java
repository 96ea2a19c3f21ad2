package org.jwarp.bench.loopback;

import java.util.ArrayList;
import java.util.List;
import org.jwarp.verbs.DeviceConfig;

/**
 * The soft RNIC's headline figures on loopback, each against the plain-socket baseline measured in
 * the same run: RDMA WRITE streaming bandwidth vs a NIO stream of the same message size, and
 * 8-byte RDMA WRITE ping-pong latency vs a busy-polling NIO ping-pong; jwarp in invoker mode (one
 * spinning thread per side, like the baseline) and in dedicated mode (engine threads of their own).
 *
 * <pre>java -cp bench/target/jwarp-jmh.jar org.jwarp.bench.loopback.LoopbackBench [repeats] [seconds]</pre>
 */
public final class LoopbackBench {

    private LoopbackBench() {
    }

    public static void main(String[] args) throws Exception {
        int repeats = args.length > 0 ? Integer.parseInt(args[0]) : 3;
        double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 3;
        if (args.length > 2 && args[2].equals("profile-write-bw")) {
            // one case alone, for a profiler
            try (JwarpLoopback j = new JwarpLoopback(DeviceConfig.builder()
                    .threadingMode(DeviceConfig.ThreadingMode.INVOKER).build())) {
                System.out.printf("jwarp invoker WRITE 64 KiB: %.2f Gb/s%n", j.writeBandwidth(65536, seconds, 0, 1).gbps());
            }
            return;
        }
        if (args.length > 2 && args[2].equals("profile-write-lat")) {
            try (JwarpLoopback j = new JwarpLoopback(DeviceConfig.builder()
                    .threadingMode(DeviceConfig.ThreadingMode.INVOKER).build())) {
                System.out.printf("jwarp invoker 8 B WRITE ping-pong: %.2f µs one-way%n", j.writeLatency(8, 400_000, 0, 1)[1]);
            }
            return;
        }
        int size = 65536;
        int iterations = 20_000;
        DeviceConfig invoker = DeviceConfig.builder().threadingMode(DeviceConfig.ThreadingMode.INVOKER).build();
        DeviceConfig dedicated = DeviceConfig.builder().threadingMode(DeviceConfig.ThreadingMode.DEDICATED)
                .engineThreads(1).idleStrategy(DeviceConfig.IdleStrategyKind.BACKOFF).build();
        // one uncounted pass first: the JIT compiles both stacks' data paths
        NioBaseline.stream(size, 1, 0, 1);
        NioBaseline.pingPong(8, iterations / 10, 0, 1);
        try (JwarpLoopback j = new JwarpLoopback(invoker)) {
            j.writeBandwidth(size, 1, 0, 1);
            j.writeLatency(8, iterations / 10, 0, 1);
        }
        List<double[]> nioBw = new ArrayList<>();
        List<double[]> invBw = new ArrayList<>();
        List<double[]> dedBw = new ArrayList<>();
        List<double[]> nioLat = new ArrayList<>();
        List<double[]> invLat = new ArrayList<>();
        List<double[]> dedLat = new ArrayList<>();
        for (int r = 0; r < repeats; r++) {
            Result n = NioBaseline.stream(size, seconds, 0, 1);
            nioBw.add(new double[] {n.gbps(), n.cpuPercentPerGbps()});
            try (JwarpLoopback j = new JwarpLoopback(invoker)) {
                Result w = j.writeBandwidth(size, seconds, 0, 1);
                invBw.add(new double[] {w.gbps(), w.cpuPercentPerGbps()});
                invLat.add(j.writeLatency(8, iterations, 0, 1));
            }
            try (JwarpLoopback j = new JwarpLoopback(dedicated)) {
                Result w = j.writeBandwidth(size, seconds, 0, 1);
                dedBw.add(new double[] {w.gbps(), w.cpuPercentPerGbps()});
                dedLat.add(j.writeLatency(8, iterations / 4, 0, 1));
            }
            nioLat.add(NioBaseline.pingPong(8, iterations, 0, 1));
            System.out.printf("run %d: NIO %.2f Gb/s, jwarp invoker %.2f, dedicated %.2f | 8 B one-way µs: NIO %.2f,"
                            + " jwarp invoker %.2f, dedicated %.2f%n", r + 1, nioBw.get(r)[0], invBw.get(r)[0],
                    dedBw.get(r)[0], nioLat.get(r)[1], invLat.get(r)[1], dedLat.get(r)[1]);
        }
        double nb = med(nioBw, 0);
        double nl = med(nioLat, 1);
        System.out.println();
        System.out.printf("%-44s %10s %10s %14s %8s%n", "64 KiB stream (client CPU 0, server CPU 1)", "Gb/s", "ratio",
                "%CPU per Gb/s", "spread");
        row("NIO stream (baseline)", nioBw, nb);
        row("jwarp RDMA WRITE, invoker, CRC on", invBw, nb);
        row("jwarp RDMA WRITE, dedicated, CRC on", dedBw, nb);
        System.out.println();
        System.out.printf("%-44s %10s %10s %10s %10s%n", "8 B ping-pong, one-way µs (median of runs)", "median",
                "ratio", "p99", "min");
        lat("NIO busy-poll ping-pong (baseline)", nioLat, nl);
        lat("jwarp RDMA WRITE ping-pong, invoker", invLat, nl);
        lat("jwarp RDMA WRITE ping-pong, dedicated", dedLat, nl);
    }

    private static void row(String name, List<double[]> runs, double base) {
        double g = med(runs, 0);
        System.out.printf("%-44s %10.2f %10.2f %14.2f %7.0f%%%n", name, g, g / base, med(runs, 1), spread(runs, 0));
    }

    private static void lat(String name, List<double[]> runs, double base) {
        double m = med(runs, 1);
        System.out.printf("%-44s %10.2f %10.2f %10.2f %10.2f%n", name, m, m / base, med(runs, 2), med(runs, 0));
    }

    private static double med(List<double[]> runs, int k) {
        double[] xs = new double[runs.size()];
        for (int i = 0; i < xs.length; i++) {
            xs[i] = runs.get(i)[k];
        }
        return Stats.median(xs);
    }

    /** (max - min) / median, in percent. */
    private static double spread(List<double[]> runs, int k) {
        double min = Double.MAX_VALUE;
        double max = -Double.MAX_VALUE;
        for (double[] r : runs) {
            min = Math.min(min, r[k]);
            max = Math.max(max, r[k]);
        }
        return (max - min) * 100 / med(runs, k);
    }
}
