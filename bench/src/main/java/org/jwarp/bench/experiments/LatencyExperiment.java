package org.jwarp.bench.experiments;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.jwarp.bench.experiment.SvgChart;
import org.jwarp.bench.experiments.ExperimentProcesses.Hosts;
import org.jwarp.bench.report.PerfDocument;

/**
 * Seed 000's latency figures (Fig. 3 and Fig. 8): one-way latency of RDMA WRITE ping-pong against a
 * sockets ping-pong, over message size at no added delay (two processes on loopback), and over the
 * network delay degen adds at 1 KiB (two hosts of the testbed, as root). Every point is a
 * {@code jwarp write-lat} server and client, each a process of its own, run as a user runs them.
 */
public final class LatencyExperiment {

    public static final String SCHEMA = "jwarp-experiment-latency/1";
    static final List<String> TRANSPORTS = List.of("jwarp", "sockets-busypoll");

    /** What runs. */
    record Plan(List<Integer> sizes, List<Double> delaysMs, int repeats, long iterations) {

        static Plan quick() {
            return new Plan(List.of(4, 64, 1024, 16384, 65536), List.of(0.0, 2.0, 10.0), 1, 300);
        }

        static Plan full() {
            return new Plan(List.of(4, 16, 64, 256, 1024, 4096, 16384, 65536), List.of(0.0, 1.0, 2.0, 5.0, 10.0), 3,
                    5000);
        }

        /** The points the plan measures, with the delay sweep or not. */
        int points(boolean delays) {
            return repeats * TRANSPORTS.size() * (sizes.size() + (delays ? delaysMs.size() : 0));
        }

        /** Round trips at a delay: enough for a stable typical value within about 2 s per point. */
        long iterationsAt(double delayMs) {
            return delayMs <= 0 ? iterations : Math.max(20, Math.min(iterations, (long) (1000 / (2 * delayMs))));
        }
    }

    /**
     * One measured point; {@code pollerCpuWaitMs}: how long the two sides' busy-polling threads
     * waited runnable for a CPU during the measured pass, together ({@link ExperimentProcesses.Measured}).
     */
    public record Point(String part, String transport, int size, double delayMs, int repeat, long iterations,
                        double minUs, double typicalUs, double p99Us, double avgUs, double pollerCpuWaitMs) {
    }

    private LatencyExperiment() {
    }

    /** The size sweep at no added delay. */
    static List<Point> sizes(JwarpTool jwarp, Plan plan, Hosts hosts, Consumer<Point> progress)
            throws IOException, InterruptedException {
        return ExperimentProcesses.points(plan.repeats(), plan.sizes(), TRANSPORTS,
                (size, t, r) -> once(jwarp, "size", hosts, t, size, 0, r, plan.iterations()), progress);
    }

    /** The points at delay {@code delayMs} (already set on the link), at 1 KiB. */
    static List<Point> delay(JwarpTool jwarp, Plan plan, Hosts hosts, double delayMs, Consumer<Point> progress)
            throws IOException, InterruptedException {
        return ExperimentProcesses.points(plan.repeats(), List.of(1024), TRANSPORTS,
                (size, t, r) -> once(jwarp, "delay", hosts, t, size, delayMs, r, plan.iterationsAt(delayMs)), progress);
    }

    private static Point once(JwarpTool jwarp, String part, Hosts hosts, String transport, int size, double delayMs,
                              int repeat, long iterations) throws IOException, InterruptedException {
        ExperimentProcesses.Measured m = ExperimentProcesses.measured(jwarp, hosts, "write-lat", transport, List.of(),
                List.of("-s", Integer.toString(size), "-n", Long.toString(iterations)), line -> { });
        PerfDocument.LatencyUs l = ExperimentProcesses.latency(m.doc());
        return new Point(part, transport, size, delayMs, repeat, iterations, l.min(), l.typical(), l.p99(), l.avg(),
                m.serverWaitMs() + m.clientWaitMs());
    }

    // ------------------------------------------------------------------ output

    static double median(List<Point> points, String part, String transport, int size, double delay) {
        return ExperimentProcesses.median(points, p -> p.part().equals(part) && p.transport().equals(transport)
                && p.size() == size && p.delayMs() == delay, Point::typicalUs);
    }

    static List<Path> write(Path dir, Plan plan, List<Point> points, String mode, List<String> notes) throws IOException {
        Map<String, Object> head = new LinkedHashMap<>();
        head.put("sizes", plan.sizes());
        head.put("delaysMs", plan.delaysMs());
        head.put("repeats", plan.repeats());
        List<Path> files = ExperimentData.write(dir, SCHEMA, mode, head, notes, Point.class, points);
        SvgChart bySize = new SvgChart("One-way latency by message size, no added delay (seed 000 Fig. 3)",
                "message size, bytes", "one-way latency, µs (typical)");
        for (int size : plan.sizes()) {
            for (String t : TRANSPORTS) {
                bySize.point(label(t), size, median(points, "size", t, size, 0));
            }
        }
        files.add(Files.writeString(dir.resolve("latency-by-size.svg"), bySize.render()));
        boolean delays = points.stream().anyMatch(p -> p.part().equals("delay"));
        if (delays) {
            SvgChart byDelay = new SvgChart("One-way latency at 1 KiB by added delay (seed 000 Fig. 8)",
                    "one-way delay added by degen, ms (0 drawn at 0.1)", "one-way latency, µs (typical)");
            for (double d : plan.delaysMs()) {
                for (String t : TRANSPORTS) {
                    byDelay.point(label(t), d > 0 ? d : 0.1, median(points, "delay", t, 1024, d));
                }
            }
            files.add(Files.writeString(dir.resolve("latency-by-delay.svg"), byDelay.render()));
        }
        StringBuilder md = new StringBuilder("# Latency experiment (seed 000, Fig. 3 and Fig. 8)\n\n");
        md.append("Mode: ").append(mode).append(". `jwarp write-lat` (RDMA WRITE ping-pong, both sides polling) against ")
                .append("the same ping-pong over TCP sockets (`--transport sockets-busypoll`), each point a server and a ")
                .append("client process as a user runs them; ").append(plan.repeats()).append(" run(s) per point, median ")
                .append("of the typical (median) one-way latency.\n\n");
        for (String n : notes) {
            md.append("- ").append(n).append('\n');
        }
        md.append("\n| part | size | delay, ms | jwarp, µs | sockets, µs | jwarp / sockets |\n|---|---|---|---|---|---|\n");
        for (int size : plan.sizes()) {
            row(md, points, "size", size, 0);
        }
        if (delays) {
            for (double d : plan.delaysMs()) {
                row(md, points, "delay", 1024, d);
            }
        }
        md.append("\nPlots: `latency-by-size.svg`").append(delays ? ", `latency-by-delay.svg`" : "")
                .append(". Data: `results.csv`, `results.json` (").append(SCHEMA).append(").\n");
        files.add(Files.writeString(dir.resolve("README.md"), md.toString()));
        return files;
    }

    private static void row(StringBuilder md, List<Point> points, String part, int size, double d) {
        double j = median(points, part, "jwarp", size, d);
        double s = median(points, part, "sockets-busypoll", size, d);
        md.append(String.format(Locale.ROOT, "| %s | %d | %.1f | %.2f | %.2f | %.2f |%n", part, size, d, j, s, j / s));
    }

    static String label(String transport) {
        return transport.equals("jwarp") ? "jwarp RDMA WRITE" : "TCP sockets (busy poll)";
    }
}
