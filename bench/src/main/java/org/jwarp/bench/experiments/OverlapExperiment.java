package org.jwarp.bench.experiments;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.StringJoiner;
import java.util.function.Consumer;
import org.jwarp.bench.experiment.OverlapSide;
import org.jwarp.bench.experiment.ResultLines;
import org.jwarp.bench.experiment.SizeText;
import org.jwarp.bench.experiment.SvgChart;
import org.jwarp.bench.experiments.ExperimentProcesses.Hosts;
import org.jwarp.bench.run.JvmProcess;

/**
 * Seed 000's overlap figures (Fig. 4a, Fig. 5): the share of a client's time spent computing when
 * it starts a ping-pong, computes for C ms, then finishes it, by RDMA WRITE and by non-blocking
 * sockets; over the computation time (loopback), and (testbed, root) over the network delay at the
 * paper's 242 ms of computation. Each stack, size and repeat is a server and a client process
 * ({@link OverlapSide}); one client process runs every computation time in turn.
 */
public final class OverlapExperiment {

    public static final String SCHEMA = "jwarp-experiment-overlap/1";
    static final List<String> STACKS = List.of("jwarp", "sockets");
    /** Fig. 5b's computation time and both figures' message size, from the paper's text. */
    static final double PAPER_COMPUTE_MS = 242;
    static final int PAPER_SIZE = 1024;


    /**
     * What runs.
     *
     * @param seconds time to spend at each computation time (sets its iterations)
     */
    record Plan(List<Integer> sizes, List<Double> computesMs, List<Double> delaysMs, double delayComputeMs, int repeats,
                double seconds, int delayIterations, boolean pinned) {

        static Plan quick(boolean pinned) {
            return new Plan(List.of(PAPER_SIZE, 1 << 20), List.of(0.1, 1.0, 4.0, 16.0, 64.0), List.of(0.0, 2.0, 10.0),
                    PAPER_COMPUTE_MS, 1, 0.4, 3, pinned);
        }

        static Plan full(boolean pinned) {
            return new Plan(List.of(PAPER_SIZE, 64 << 10, 1 << 20), List.of(0.05, 0.1, 0.25, 0.5, 1.0, 2.0, 4.0, 8.0, 16.0,
                    64.0, PAPER_COMPUTE_MS), List.of(0.0, 1.0, 2.0, 5.0, 10.0), PAPER_COMPUTE_MS, 3, 1.5, 8, pinned);
        }

        /** The points the plan measures, with the delay sweep or not. */
        int points(boolean delays) {
            return repeats * sizes.size() * STACKS.size() * (computesMs.size() + (delays ? delaysMs.size() : 0));
        }

        /** Timed iterations at {@code computeMs}: about {@code seconds}' worth, 3 to 300. */
        int iterations(double computeMs) {
            return (int) Math.max(3, Math.min(300, seconds * 1000 / (computeMs + 1)));
        }
    }

    /** One measured point: medians over its iterations. */
    public record Point(String part, String stack, int size, double computeMs, double delayMs, int repeat, int iterations,
                 @ExperimentData.Column(decimals = 5) double overlap, double totalUs, double computeUs,
                 @ExperimentData.Column(csv = "roundtrip_us") double roundTripUs) {
    }

    private OverlapExperiment() {
    }

    /** The computation-time sweep at no added delay. */
    static List<Point> computes(Plan plan, Hosts hosts, Consumer<Point> progress)
            throws IOException, InterruptedException {
        StringJoiner steps = new StringJoiner(",");
        for (double c : plan.computesMs()) {
            steps.add(c + ":" + plan.iterations(c));
        }
        return flat(ExperimentProcesses.points(plan.repeats(), plan.sizes(), STACKS, (size, s, r) -> once("compute",
                hosts, s, size, plan.pinned(), 30, steps.toString(), 0, r, progress), each -> { }));
    }

    /** The points at one delay (already set on the link), at the paper's computation time. */
    static List<Point> delay(Plan plan, Hosts hosts, double delayMs, Consumer<Point> progress)
            throws IOException, InterruptedException {
        return flat(ExperimentProcesses.points(plan.repeats(), plan.sizes(), STACKS, (size, s, r) -> once("delay",
                hosts, s, size, plan.pinned(), 3, plan.delayComputeMs() + ":" + plan.delayIterations(), delayMs, r,
                progress), each -> { }));
    }

    /** A client process's points, process after process (each was handed to the progress as it came). */
    private static List<Point> flat(List<List<Point>> perProcess) {
        return perProcess.stream().flatMap(List::stream).toList();
    }

    private static List<Point> once(String part, Hosts hosts, String stack, int size, boolean pinned,
                                    int warmup, String steps, double delayMs, int repeat, Consumer<Point> progress)
            throws IOException, InterruptedException {
        String pin = pinned ? "pin" : "free";
        try (JvmProcess server = JvmProcess.start(hosts.serverPrefix(), OverlapSide.class.getName(),
                List.of("serve", stack, Integer.toString(size), pin), "overlap server")) {
            String out = JvmProcess.run(hosts.clientPrefix(), OverlapSide.class.getName(), List.of("run", stack,
                    hosts.serverAddress(), Integer.toString(server.port()), Integer.toString(size), pin,
                    Integer.toString(warmup), steps), "overlap client (" + stack + ", " + size + " B)", line -> { },
                    120);
            List<Point> points = new ArrayList<>();
            for (OverlapSide.Result r : ResultLines.all(out, OverlapSide.Result.class, "overlap client")) {
                Point p = new Point(part, stack, size, r.computeMs(), delayMs, repeat, r.count(), r.overlap(),
                        r.totalUs(), r.computeUs(), r.roundTripUs());
                points.add(p);
                progress.accept(p);
            }
            return points;
        }
    }

    static double median(List<Point> points, String part, String stack, int size, double compute, double delay) {
        return ExperimentProcesses.median(points, p -> p.part().equals(part) && p.stack().equals(stack)
                && p.size() == size && p.computeMs() == compute && p.delayMs() == delay, Point::overlap);
    }

    static List<Path> write(Path dir, Plan plan, List<Point> points, String mode, List<String> notes) throws IOException {
        // the iterations' time budget is how a point runs, not what it measures
        Map<String, Object> planDoc = ExperimentData.planFields(plan, List.of("seconds", "delayIterations"),
                Map.entry("paper", Map.of("computeMsFig5b", PAPER_COMPUTE_MS, "sizeBytes", PAPER_SIZE)));
        List<Path> files = ExperimentData.write(dir, SCHEMA, mode, planDoc, notes, Point.class, points);
        SvgChart byCompute = new SvgChart("Overlap ratio by computation time, no added delay (seed 000 Fig. 5a)",
                "computation time, ms", "overlap = computation / total (median)");
        for (int size : plan.sizes()) {
            for (double c : plan.computesMs()) {
                for (String s : STACKS) {
                    byCompute.point(label(s, size), c, median(points, "compute", s, size, c, 0));
                }
            }
        }
        files.add(Files.writeString(dir.resolve("overlap-by-compute.svg"), byCompute.render()));
        boolean delays = points.stream().anyMatch(p -> p.part().equals("delay"));
        if (delays) {
            SvgChart byDelay = new SvgChart(String.format(Locale.ROOT, "Overlap ratio at %.0f ms of computation by added "
                    + "delay (seed 000 Fig. 5b)", plan.delayComputeMs()), "one-way delay added by degen, ms (0 drawn at "
                    + "0.1)", "overlap = computation / total (median)");
            for (int size : plan.sizes()) {
                for (double d : plan.delaysMs()) {
                    for (String s : STACKS) {
                        byDelay.point(label(s, size), d > 0 ? d : 0.1, median(points, "delay", s, size,
                                plan.delayComputeMs(), d));
                    }
                }
            }
            files.add(Files.writeString(dir.resolve("overlap-by-delay.svg"), byDelay.render()));
        }
        StringBuilder md = new StringBuilder("# Computation and communication overlap (seed 000, Fig. 4a and Fig. 5)\n\n");
        md.append("Mode: ").append(mode).append(". The client starts a ping-pong of SIZE bytes each way, computes (a ")
                .append("dummy loop of C ms), then finishes the ping-pong; overlap = computation time / total time, the ")
                .append("median over the iterations. RDMA WRITE (jwarp): the ping is posted as a WRITE into the server's ")
                .append("buffer and a SEND after it, the pong comes back the same way, and both devices' engine threads ")
                .append("(sleeping when idle) move the data while the client computes. Sockets: a non-blocking ")
                .append("SocketChannel takes what its send buffer holds, the client computes, then writes the rest and ")
                .append("reads the pong. Both wait asleep (completion events, a selector); the pong's bytes are checked. ")
                .append(plan.repeats()).append(" run(s) per point.\n\n");
        md.append(String.format(Locale.ROOT, "The paper: %d-byte messages, Fig. 5b at %.0f ms of computation. Here: sizes "
                + "%s, the delay sweep at %.0f ms.%n%n", PAPER_SIZE, PAPER_COMPUTE_MS, plan.sizes(), plan.delayComputeMs()));
        for (String n : notes) {
            md.append("- ").append(n).append('\n');
        }
        md.append("\n| part | size | computation, ms | delay, ms | RDMA WRITE overlap | sockets overlap | RDMA round trip "
                + "alone, µs | sockets round trip alone, µs |\n|---|---|---|---|---|---|---|---|\n");
        for (int size : plan.sizes()) {
            for (double c : plan.computesMs()) {
                row(md, points, "compute", size, c, 0);
            }
        }
        if (delays) {
            for (int size : plan.sizes()) {
                for (double d : plan.delaysMs()) {
                    row(md, points, "delay", size, plan.delayComputeMs(), d);
                }
            }
        }
        md.append("\nPlots: `overlap-by-compute.svg`").append(delays ? ", `overlap-by-delay.svg`" : "")
                .append(". Data: `results.csv`, `results.json` (").append(SCHEMA).append(").\n");
        files.add(Files.writeString(dir.resolve("README.md"), md.toString()));
        return files;
    }

    private static void row(StringBuilder md, List<Point> points, String part, int size, double c, double d) {
        md.append(String.format(Locale.ROOT, "| %s | %d | %s | %.1f | %.3f | %.3f | %.0f | %.0f |%n", part, size,
                c == PAPER_COMPUTE_MS ? "242 (paper's)" : String.format(Locale.ROOT, "%.2f", c), d,
                median(points, part, "jwarp", size, c, d), median(points, part, "sockets", size, c, d),
                roundTrip(points, part, "jwarp", size, d), roundTrip(points, part, "sockets", size, d)));
    }

    private static double roundTrip(List<Point> points, String part, String stack, int size, double delay) {
        return ExperimentProcesses.median(points, p -> p.part().equals(part) && p.stack().equals(stack)
                && p.size() == size && p.delayMs() == delay, Point::roundTripUs);
    }

    static String label(String stack, int size) {
        return (stack.equals("jwarp") ? "jwarp RDMA WRITE, " : "non-blocking sockets, ") + SizeText.of(size);
    }
}
