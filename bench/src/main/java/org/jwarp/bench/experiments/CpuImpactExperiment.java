package org.jwarp.bench.experiments;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;
import org.jwarp.bench.experiment.CpuImpactSide;
import org.jwarp.bench.experiment.ResultLines;
import org.jwarp.bench.experiment.SizeText;
import org.jwarp.bench.experiment.SvgChart;
import org.jwarp.bench.experiments.ExperimentProcesses.Hosts;
import org.jwarp.bench.run.JvmProcess;

/**
 * Seed 000's CPU-impact figures (Fig. 7): a server application's execution time for a fixed
 * CPU-bound job, alone and while many clients stream messages to it, by RDMA WRITE (placed by the
 * server's engine, the application never involved) and by sockets (the application reads them);
 * over the message size (loopback), and (testbed, root) over the network delay at 16 KiB. Each
 * point is a server and a client process ({@link CpuImpactSide}); the job alone is measured in the
 * same server process just before, so each point carries its own baseline.
 */
public final class CpuImpactExperiment {

    public static final String SCHEMA = "jwarp-experiment-cpu-impact/1";
    static final List<String> STACKS = List.of("jwarp", "sockets");
    /** Fig. 7's client count and Fig. 7b's message size, from the paper's text. */
    static final int PAPER_CLIENTS = 40;
    static final int DELAY_SWEEP_SIZE = 16 << 10;


    /** What runs. */
    record Plan(List<Integer> sizes, List<Double> delaysMs, int clients, double jobMs, int repeats, boolean pinned) {

        static Plan quick(boolean pinned) {
            return new Plan(List.of(1 << 10, DELAY_SWEEP_SIZE, 256 << 10), List.of(0.0, 2.0, 10.0), 8, 400, 1, pinned);
        }

        static Plan full(boolean pinned) {
            return new Plan(List.of(1 << 10, 4 << 10, DELAY_SWEEP_SIZE, 64 << 10, 256 << 10),
                    List.of(0.0, 1.0, 2.0, 5.0, 10.0), PAPER_CLIENTS, 2000, 3, pinned);
        }

        /** The points the plan measures, with the delay sweep or not. */
        int points(boolean delays) {
            return repeats * STACKS.size() * (sizes.size() + (delays ? delaysMs.size() : 0));
        }
    }

    /** One measured point. */
    public record Point(String part, String stack, int size, double delayMs, int repeat, int clients, double aloneMs,
                 double loadedMs, @ExperimentData.Column(decimals = 4) double slowdown, double rxMibS) {
    }

    private CpuImpactExperiment() {
    }

    /** The size sweep at no added delay. */
    static List<Point> sizes(Plan plan, Hosts hosts, Consumer<Point> progress)
            throws IOException, InterruptedException {
        return ExperimentProcesses.points(plan.repeats(), plan.sizes(), STACKS,
                (size, s, r) -> once("size", plan, hosts, s, size, 0, r), progress);
    }

    /** The points at one delay (already set on the link), at 16 KiB. */
    static List<Point> delay(Plan plan, Hosts hosts, double delayMs, Consumer<Point> progress)
            throws IOException, InterruptedException {
        return ExperimentProcesses.points(plan.repeats(), List.of(DELAY_SWEEP_SIZE), STACKS,
                (size, s, r) -> once("delay", plan, hosts, s, size, delayMs, r), progress);
    }

    private static Point once(String part, Plan plan, Hosts hosts, String stack, int size,
                              double delayMs, int repeat) throws IOException, InterruptedException {
        String pin = plan.pinned() ? "pin" : "free";
        String clients = Integer.toString(plan.clients());
        try (JvmProcess server = JvmProcess.start(hosts.serverPrefix(), CpuImpactSide.class.getName(),
                List.of("serve", stack, Integer.toString(size), clients, Double.toString(plan.jobMs()), pin),
                "cpu-impact server")) {
            JvmProcess.run(hosts.clientPrefix(), CpuImpactSide.class.getName(), List.of("stream", stack,
                    hosts.serverAddress(), Integer.toString(server.port()), Integer.toString(size), clients, pin),
                    "cpu-impact client (" + stack + ", " + size + " B)", line -> { }, 120);
            CpuImpactSide.Result r = ResultLines.all(server.awaitOutput(60), CpuImpactSide.Result.class,
                    "cpu-impact server").getFirst();
            return new Point(part, stack, size, delayMs, repeat, plan.clients(), r.aloneMs(), r.loadedMs(),
                    r.loadedMs() / r.aloneMs(), r.rxMibS());
        }
    }

    static double median(List<Point> points, String part, String stack, int size, double delay,
                         ToDoubleFunction<Point> value) {
        return ExperimentProcesses.median(points, p -> p.part().equals(part) && (stack == null
                || p.stack().equals(stack)) && p.size() == size && p.delayMs() == delay, value);
    }

    static List<Path> write(Path dir, Plan plan, List<Point> points, String mode, List<String> notes) throws IOException {
        Map<String, Object> planDoc = ExperimentData.planFields(plan, List.of(), Map.entry("delaySweepSize",
                DELAY_SWEEP_SIZE), Map.entry("paper", Map.of("clients", PAPER_CLIENTS, "delaySweepSizeBytes",
                DELAY_SWEEP_SIZE)));
        List<Path> files = ExperimentData.write(dir, SCHEMA, mode, planDoc, notes, Point.class, points);
        SvgChart bySize = new SvgChart("Server job's execution time under background streams by size (seed 000 Fig. 7a)",
                "message size, bytes", "job execution time, ms (median)");
        for (int size : plan.sizes()) {
            plot(bySize, points, "size", size, 0, size);
        }
        files.add(Files.writeString(dir.resolve("job-time-by-size.svg"), bySize.render()));
        boolean delays = points.stream().anyMatch(p -> p.part().equals("delay"));
        if (delays) {
            SvgChart byDelay = new SvgChart("Server job's execution time under 16 KiB streams by added delay (seed 000 "
                    + "Fig. 7b)", "one-way delay added by degen, ms (0 drawn at 0.1)", "job execution time, ms (median)");
            for (double d : plan.delaysMs()) {
                plot(byDelay, points, "delay", DELAY_SWEEP_SIZE, d, d > 0 ? d : 0.1);
            }
            files.add(Files.writeString(dir.resolve("job-time-by-delay.svg"), byDelay.render()));
        }
        StringBuilder md = new StringBuilder("# CPU resource requirements (seed 000, Fig. 7)\n\n");
        md.append("Mode: ").append(mode).append(String.format(Locale.ROOT, ". The server's application runs a fixed "
                + "CPU-bound job (calibrated to %.0f ms alone in its process, then fixed), once alone and once while %d "
                + "client connections (the paper: %d) stream messages to it without pause. RDMA WRITE (jwarp): the "
                + "server's engine thread places every message in registered memory; the application never looks at "
                + "them. Sockets: the application reads them itself, between two steps of its job (every 0.1 ms of "
                + "work), as a single-threaded server does. Each time is the shortest of %d runs alone and of %d under "
                + "load (other work on the machine only lengthens a run); slowdown = under load / alone, both in the "
                + "same server process. %d run(s) per point.%n%n", plan.jobMs(), plan.clients(), PAPER_CLIENTS,
                CpuImpactSide.ALONE_RUNS, CpuImpactSide.LOADED_RUNS, plan.repeats()));
        for (String n : notes) {
            md.append("- ").append(n).append('\n');
        }
        md.append("\n| part | size | delay, ms | alone, ms | RDMA WRITE, ms | sockets, ms | RDMA slowdown | sockets "
                + "slowdown | RDMA MiB/s | sockets MiB/s |\n|---|---|---|---|---|---|---|---|---|---|\n");
        for (int size : plan.sizes()) {
            row(md, points, "size", size, 0);
        }
        if (delays) {
            for (double d : plan.delaysMs()) {
                row(md, points, "delay", DELAY_SWEEP_SIZE, d);
            }
        }
        md.append("\nMiB/s: what the server received during the loaded job. Plots: `job-time-by-size.svg`")
                .append(delays ? ", `job-time-by-delay.svg`" : "").append(". Data: `results.csv`, `results.json` (")
                .append(SCHEMA).append(").\n");
        files.add(Files.writeString(dir.resolve("README.md"), md.toString()));
        return files;
    }

    private static void plot(SvgChart chart, List<Point> points, String part, int size, double delay, double x) {
        chart.point("job alone", x, median(points, part, null, size, delay, Point::aloneMs));
        for (String s : STACKS) {
            chart.point(label(s), x, median(points, part, s, size, delay, Point::loadedMs));
        }
    }

    private static void row(StringBuilder md, List<Point> points, String part, int size, double d) {
        md.append(String.format(Locale.ROOT, "| %s | %s | %.1f | %.0f | %.0f | %.0f | %.2f | %.2f | %.0f | %.0f |%n", part,
                SizeText.of(size), d, median(points, part, null, size, d, Point::aloneMs),
                median(points, part, "jwarp", size, d, Point::loadedMs),
                median(points, part, "sockets", size, d, Point::loadedMs),
                median(points, part, "jwarp", size, d, Point::slowdown),
                median(points, part, "sockets", size, d, Point::slowdown),
                median(points, part, "jwarp", size, d, Point::rxMibS),
                median(points, part, "sockets", size, d, Point::rxMibS)));
    }

    static String label(String stack) {
        return stack.equals("jwarp") ? "with RDMA WRITE streams (jwarp)" : "with sockets streams";
    }
}
