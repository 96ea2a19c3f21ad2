package org.jwarp.bench.experiments;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import org.jwarp.bench.experiment.ProgressSide;
import org.jwarp.bench.experiment.ResultLines;
import org.jwarp.bench.experiment.SvgChart;
import org.jwarp.bench.experiments.ExperimentProcesses.Hosts;
import org.jwarp.bench.run.JvmProcess;

/**
 * Seed 000's communication-progress figures (Fig. 4b, Fig. 6): the latency to fetch 1 KiB from a
 * remote process that is busy in a dummy loop, by RDMA READ and by a sockets request/response,
 * over the remote load, and (testbed, root) over the network delay at 16 ms of load. Each point is
 * a server and a client process ({@link ProgressSide}).
 */
public final class ProgressExperiment {

    public static final String SCHEMA = "jwarp-experiment-progress/1";
    static final List<String> STACKS = List.of("jwarp", "sockets");
    static final double DELAY_SWEEP_LOAD_MS = 16;


    record Plan(List<Double> loadsMs, List<Double> delaysMs, int repeats, int fetches) {
        static Plan quick() {
            return new Plan(List.of(0.0, 1.0, 4.0, 16.0), List.of(0.0, 2.0, 10.0), 1, 40);
        }

        static Plan full() {
            return new Plan(List.of(0.0, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0, 32.0), List.of(0.0, 1.0, 2.0, 5.0, 10.0), 3, 100);
        }

        /** The points the plan measures, with the delay sweep or not. */
        int points(boolean delays) {
            return repeats * STACKS.size() * (loadsMs.size() + (delays ? delaysMs.size() : 0));
        }
    }

    public record Point(String part, String stack, double loadMs, double delayMs, int repeat, int fetches, double medianUs,
                 double p99Us, double minUs) {
    }

    private ProgressExperiment() {
    }

    static List<Point> loads(Plan plan, Hosts hosts, Consumer<Point> progress)
            throws IOException, InterruptedException {
        return ExperimentProcesses.points(plan.repeats(), plan.loadsMs(), STACKS,
                (load, s, r) -> once("load", hosts, s, load, 0, r, plan.fetches()), progress);
    }

    /** The points at delay {@code delayMs} (already set on the link), at {@link #DELAY_SWEEP_LOAD_MS} of load. */
    static List<Point> delay(Plan plan, Hosts hosts, double delayMs, Consumer<Point> progress)
            throws IOException, InterruptedException {
        return ExperimentProcesses.points(plan.repeats(), List.of(DELAY_SWEEP_LOAD_MS), STACKS,
                (load, s, r) -> once("delay", hosts, s, load, delayMs, r, Math.max(10, plan.fetches() / 2)), progress);
    }

    private static Point once(String part, Hosts hosts, String stack, double loadMs, double delayMs,
                      int repeat, int fetches) throws IOException, InterruptedException {
        try (JvmProcess server = JvmProcess.start(hosts.serverPrefix(), ProgressSide.class.getName(),
                List.of("serve", stack, Double.toString(loadMs)), "progress server")) {
            String out = JvmProcess.run(hosts.clientPrefix(), ProgressSide.class.getName(), List.of("fetch", stack,
                    hosts.serverAddress(), Integer.toString(server.port()), Integer.toString(fetches)),
                    "progress client (" + stack + ", load " + loadMs + " ms)", line -> { }, 120);
            ProgressSide.Result r = ResultLines.all(out, ProgressSide.Result.class, "progress client").getFirst();
            return new Point(part, stack, loadMs, delayMs, repeat, r.count(), r.medianUs(), r.p99Us(), r.minUs());
        }
    }

    static double median(List<Point> points, String part, String stack, double load, double delay) {
        return ExperimentProcesses.median(points, p -> p.part().equals(part) && p.stack().equals(stack)
                && p.loadMs() == load && p.delayMs() == delay, Point::medianUs);
    }

    static List<Path> write(Path dir, Plan plan, List<Point> points, String mode, List<String> notes) throws IOException {
        Map<String, Object> head = new LinkedHashMap<>();
        head.put("loadsMs", plan.loadsMs());
        head.put("delaysMs", plan.delaysMs());
        head.put("fetchBytes", 1024);
        head.put("repeats", plan.repeats());
        List<Path> files = ExperimentData.write(dir, SCHEMA, mode, head, notes, Point.class, points);
        SvgChart byLoad = new SvgChart("Latency to fetch 1 KiB from a busy process (seed 000 Fig. 6a)",
                "remote load (dummy loop), ms (0 drawn at 0.1)", "fetch latency, µs (median)");
        for (double l : plan.loadsMs()) {
            for (String s : STACKS) {
                byLoad.point(label(s), l > 0 ? l : 0.1, median(points, "load", s, l, 0));
            }
        }
        files.add(Files.writeString(dir.resolve("fetch-by-load.svg"), byLoad.render()));
        boolean delays = points.stream().anyMatch(p -> p.part().equals("delay"));
        if (delays) {
            SvgChart byDelay = new SvgChart("Fetch latency at 16 ms of remote load by added delay (seed 000 Fig. 6b)",
                    "one-way delay added by degen, ms (0 drawn at 0.1)", "fetch latency, µs (median)");
            for (double d : plan.delaysMs()) {
                for (String s : STACKS) {
                    byDelay.point(label(s), d > 0 ? d : 0.1, median(points, "delay", s, DELAY_SWEEP_LOAD_MS, d));
                }
            }
            files.add(Files.writeString(dir.resolve("fetch-by-delay.svg"), byDelay.render()));
        }
        StringBuilder md = new StringBuilder("# Communication progress (seed 000, Fig. 4b and Fig. 6)\n\n");
        md.append("Mode: ").append(mode).append(". The client fetches 1 KiB ").append(plan.fetches())
                .append(" times from a server process whose application is busy in a dummy loop of LOAD ms and looks at ")
                .append("the network only between two loops: by RDMA READ (jwarp, answered by the server's engine) and ")
                .append("by a request and response over a TCP socket. ").append(plan.repeats())
                .append(" run(s) per point; the median fetch latency.\n\n");
        for (String n : notes) {
            md.append("- ").append(n).append('\n');
        }
        md.append("\n| part | load, ms | delay, ms | RDMA READ, µs | sockets, µs |\n|---|---|---|---|---|\n");
        for (double l : plan.loadsMs()) {
            md.append(String.format(Locale.ROOT, "| load | %.1f | 0 | %.1f | %.1f |%n", l, median(points, "load", "jwarp",
                    l, 0), median(points, "load", "sockets", l, 0)));
        }
        if (delays) {
            for (double d : plan.delaysMs()) {
                md.append(String.format(Locale.ROOT, "| delay | %.0f | %.1f | %.1f | %.1f |%n", DELAY_SWEEP_LOAD_MS, d,
                        median(points, "delay", "jwarp", DELAY_SWEEP_LOAD_MS, d),
                        median(points, "delay", "sockets", DELAY_SWEEP_LOAD_MS, d)));
            }
        }
        md.append("\nData: `results.csv`, `results.json` (").append(SCHEMA).append(").\n");
        files.add(Files.writeString(dir.resolve("README.md"), md.toString()));
        return files;
    }

    static String label(String stack) {
        return stack.equals("jwarp") ? "jwarp RDMA READ" : "TCP sockets request/response";
    }
}
