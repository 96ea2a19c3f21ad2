package org.jwarp.bench.experiments;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import java.util.stream.Stream;
import org.jwarp.bench.experiment.SizeText;
import org.jwarp.bench.experiment.SvgChart;
import org.jwarp.bench.report.PerfDocument;

/**
 * Seed 003's verbs-options study (Fig. 1 to 6): the ping and blast tools over jwarp, varying one
 * verbs option at a time: the opcode set (SEND/RECV, RDMA WRITE, WRITE WITH IMM/RECV, RDMA READ),
 * inline data, busy polling against completion events, the outstanding buffers (send queue depth),
 * one work request per post against post lists, and full against periodic signaling. Each point is
 * one perf test run as a user runs it, {@code jwarp send-lat|write-imm-lat} (ping) or
 * {@code jwarp send-bw|write-bw|write-imm-bw|read-bw} (blast) {@code --loopback --cpu_util}, here in
 * this process: both devices, the client (the active side) and the server (the passive side).
 *
 * <p>The paper's three metrics: the one-way time per message (ping: half the round trip, the perf
 * test's average; blast: the measured time / the messages), the throughput (the bytes moved / the
 * time; ping: one message each way per round trip), and each side's CPU: its threads' CPU time
 * (application and engine threads, user + system) over the measured time, as % of one CPU, where the
 * paper took getrusage over the elapsed time.
 */
public final class VerbsOptionsExperiment {

    public static final String SCHEMA = "jwarp-experiment-verbs-options/1";
    /** jwarp's largest inline size ({@code -I}); the paper's adapter took 912 bytes. */
    static final int MAX_INLINE = 256;
    /** The opcode sets, as the perf tests name them. */
    static final List<String> OPCODES = List.of("send", "write", "write-imm", "read");
    /** The opcode sets ping has: the server must see each message arrive. */
    static final List<String> PING_OPCODES = List.of("send", "write-imm");
    /** The parts, one per figure of the paper. */
    static final List<String> PARTS = List.of("ping", "blast-small", "buffers", "buffers-large", "opcodes-large",
            "signaling");
    /** Fig. 5's buffer count and Fig. 6's message size, from the paper's text. */
    static final int LARGE_BUFFERS = 4;
    static final int SIGNALING_SIZE = 16;

    /**
     * What runs.
     *
     * @param parts         which of {@link #PARTS}
     * @param pingSizes     Fig. 1: ping's sizes (inline ones up to {@link #MAX_INLINE})
     * @param smallSizes    Fig. 2: blast with one buffer
     * @param bufferSizes   Fig. 3: blast with RDMA WRITE, inline, busy polling, over {@code buffers}
     * @param buffers       the buffer counts of Fig. 3 and Fig. 6
     * @param largeSizes    Fig. 4: RDMA WRITE, over {@code largeBuffers}, post lists
     * @param largeBuffers  the buffer counts of Fig. 4
     * @param opcodeSizes   Fig. 5: each opcode set with {@link #LARGE_BUFFERS} buffers, post lists
     * @param seconds       measured time per point (after the perf test's warm-up)
     */
    record Plan(List<String> parts, List<Integer> pingSizes, List<Integer> smallSizes, List<Integer> bufferSizes,
                List<Integer> buffers, List<Integer> largeSizes, List<Integer> largeBuffers, List<Integer> opcodeSizes,
                int repeats, double seconds) {

        static Plan quick() {
            // 46 points: each costs its perf run's warm-up besides the measured 0.3 s, so that --quick
            // stays under 2 minutes on a slow day
            return new Plan(PARTS, List.of(16, 1024), List.of(16), List.of(16), List.of(1, 16, 64), List.of(65536),
                    List.of(1, 32), List.of(262144), 1, 0.3);
        }

        static Plan full() {
            return new Plan(PARTS, powers(1, 1024), powers(1, 1024), List.of(16, 64, 256), powers(1, 128),
                    List.of(1024, 8192, 32768, 65536), powers(1, 128), powers(1024, 4 << 20), 1, 1);
        }

        private static List<Integer> powers(int from, int to) {
            List<Integer> v = new ArrayList<>();
            for (int x = from; x <= to; x *= 2) {
                v.add(x);
            }
            return v;
        }

        /** Every run of the plan, in order. */
        List<Setting> settings() {
            List<Setting> s = new ArrayList<>();
            for (int r = 0; r < repeats; r++) {
                for (String part : parts) {
                    s.addAll(part(part, r));
                }
            }
            return s;
        }

        private List<Setting> part(String part, int r) {
            List<Setting> s = new ArrayList<>();
            switch (part) {
                case "ping" -> {
                    for (String op : PING_OPCODES) {
                        for (boolean events : List.of(false, true)) {
                            for (int size : pingSizes) {
                                s.add(new Setting(part, "ping", op, false, events, size, 1, false, false, r));
                                if (size <= MAX_INLINE) {
                                    s.add(new Setting(part, "ping", op, true, events, size, 1, false, false, r));
                                }
                            }
                        }
                    }
                }
                case "blast-small" -> {
                    for (String op : OPCODES) {
                        for (boolean events : List.of(false, true)) {
                            for (int size : smallSizes) {
                                s.add(new Setting(part, "blast", op, false, events, size, 1, false, false, r));
                            }
                        }
                    }
                    for (int size : smallSizes) {
                        if (size <= MAX_INLINE) { // Fig. 2c: inline, busy polling
                            s.add(new Setting(part, "blast", "write", true, false, size, 1, false, false, r));
                        }
                    }
                }
                case "buffers" -> {
                    for (int size : bufferSizes) {
                        for (int b : buffers) {
                            s.add(new Setting(part, "blast", "write", size <= MAX_INLINE, false, size, b, false, false, r));
                            if (b > 1) {
                                s.add(new Setting(part, "blast", "write", size <= MAX_INLINE, false, size, b, true, false,
                                        r));
                            }
                        }
                    }
                }
                case "buffers-large" -> {
                    for (boolean events : List.of(false, true)) {
                        for (int size : largeSizes) {
                            for (int b : largeBuffers) {
                                s.add(new Setting(part, "blast", "write", false, events, size, b, true, false, r));
                            }
                        }
                    }
                }
                case "opcodes-large" -> {
                    for (String op : OPCODES) {
                        for (boolean events : List.of(false, true)) {
                            for (int size : opcodeSizes) {
                                s.add(new Setting(part, "blast", op, false, events, size, LARGE_BUFFERS, true, false, r));
                            }
                        }
                    }
                }
                case "signaling" -> {
                    for (int b : buffers) {
                        if (b < 4) {
                            continue; // with 1 or 2 buffers periodic signaling signals every one
                        }
                        for (boolean list : List.of(false, true)) {
                            for (boolean periodic : List.of(false, true)) {
                                s.add(new Setting(part, "blast", "write", true, false, SIGNALING_SIZE, b, list, periodic,
                                        r));
                            }
                        }
                    }
                }
                default -> throw new IllegalArgumentException("no part " + part);
            }
            return s;
        }
    }

    /**
     * One run's verbs options.
     *
     * @param postList a list of {@code buffers} work requests per post, else one per post
     * @param periodic one work request of every {@code buffers / 2} signaled, else every one
     */
    record Setting(String part, String tool, String opcode, boolean inline, boolean events, int size, int buffers,
                   boolean postList, boolean periodic, int repeat) {

        /** The perf test that runs it. */
        String test() {
            return opcode + (tool.equals("ping") ? "-lat" : "-bw");
        }

        int wrsPerPost() {
            return postList ? buffers : 1;
        }

        int signalEvery() {
            return periodic ? Math.max(1, buffers / 2) : 1;
        }

        /** The perf test's command line; {@code pin}: {@code --pin}'s value, or null. */
        List<String> args(double seconds, String pin) {
            List<String> a = new ArrayList<>(List.of(test(), "--loopback", "--json", "--cpu_util", "-s",
                    Integer.toString(size), "-D", Double.toString(seconds), "-I", inline ? Integer.toString(MAX_INLINE)
                            : "0"));
            if (pin != null) {
                a.addAll(List.of("--pin", pin));
            }
            if (tool.equals("blast")) {
                a.addAll(List.of("-t", Integer.toString(buffers), "-l", Integer.toString(wrsPerPost()), "-Q",
                        Integer.toString(signalEvery())));
                if (opcode.equals("read")) {
                    a.addAll(List.of("-o", Integer.toString(buffers)));
                }
            }
            if (events) {
                a.add("-e");
            }
            return a;
        }

        String describe() {
            return String.format(Locale.ROOT, "%-13s %-5s %-9s %-6s %-6s %8s x%-3d %-6s %-8s", part, tool, opcode,
                    inline ? "inline" : "-", events ? "events" : "busy", SizeText.of(size), buffers,
                    postList ? "list" : "single", periodic ? "periodic" : "full");
        }
    }

    /** One measured point: a perf test run's figures. */
    public record Point(String part, String tool, String opcode, boolean inline, boolean events, int size, int buffers,
                 int postList, int cqMod, int repeat, long iterations, double oneWayUs,
                 @ExperimentData.Column(decimals = 6) double gbps, double activeCpuPct, double passiveCpuPct) {
    }

    private VerbsOptionsExperiment() {
    }

    /**
     * Where the runs' threads go: on two CPUs or more the client's threads on CPU 0 and the server's on
     * CPU 1 (the paper's two hosts; two busy-polling sides on one CPU would hand over at the
     * scheduler's tick), else nowhere in particular; null: nothing pinned.
     */
    static String pinning() {
        return Runtime.getRuntime().availableProcessors() >= 2 ? "0,1" : null;
    }

    /** Runs every setting in turn; {@code conditions} gets the first run's description of its threads. */
    static List<Point> run(JwarpTool jwarp, Plan plan, List<String> conditions, Consumer<Point> progress) throws IOException {
        List<Point> out = new ArrayList<>();
        for (Setting s : plan.settings()) {
            PerfDocument doc = jwarp.runHere(s.args(plan.seconds(), pinning()));
            if (conditions.isEmpty()) {
                for (String line : Stream.concat(doc.setup().stream(), doc.threads().stream()).toList()) {
                    if (CONDITIONS.stream().anyMatch(line::startsWith)) {
                        conditions.add(line.replaceAll("\\s+", " "));
                    }
                }
            }
            Point p = point(s, doc);
            out.add(p);
            progress.accept(p);
        }
        return out;
    }

    private static Point point(Setting s, PerfDocument doc) throws IOException {
        PerfDocument.Row row = doc.first();
        double oneWayUs;
        double gbps;
        if (s.tool().equals("ping")) {
            oneWayUs = ExperimentProcesses.latency(doc).avg();
            gbps = s.size() * 8 / (oneWayUs * 1e3);
        } else {
            oneWayUs = 1 / row.msgRateMpps();
            gbps = row.bwAvgGbS();
        }
        PerfDocument.Cpu cpu = row.cpu();
        return new Point(s.part(), s.tool(), s.opcode(), s.inline(), s.events(), s.size(), s.buffers(), s.wrsPerPost(),
                s.signalEvery(), s.repeat(), row.iterations(), oneWayUs, gbps,
                cpu.clientAppPct() + cpu.clientEnginePct(), cpu.serverAppPct() + cpu.serverEnginePct());
    }

    /** How the lines of a run's setup and threads that describe its conditions start. */
    private static final List<String> CONDITIONS = List.of("Engine", "Polling", "client", "server");

    // ------------------------------------------------------------------ output

    static String opcodeLabel(String opcode) {
        return switch (opcode) {
            case "send" -> "SEND/RECV";
            case "write" -> "WRITE";
            case "write-imm" -> "WRITE WITH IMM/RECV";
            default -> "READ";
        };
    }

    private static String options(Point p) {
        return (p.inline() ? ", inline" : "") + (p.events() ? ", events" : ", busy poll");
    }

    /** One plot: the points of {@code part}, a series each, x and y as given, the median over repeats. */
    private static Path chart(Path dir, String file, String title, String xLabel, String yLabel, List<Point> points,
                              String part, Function<Point, String> series, ToDoubleFunction<Point> x,
                              ToDoubleFunction<Point> y) throws IOException {
        SvgChart c = new SvgChart(title, xLabel, yLabel);
        Map<String, Map<Double, List<Double>>> by = new LinkedHashMap<>();
        for (Point p : points) {
            if (p.part().equals(part)) {
                by.computeIfAbsent(series.apply(p), k -> new java.util.TreeMap<>())
                        .computeIfAbsent(x.applyAsDouble(p), k -> new ArrayList<>()).add(y.applyAsDouble(p));
            }
        }
        by.forEach((name, xs) -> xs.forEach((xv, ys) -> c.point(name, xv, ExperimentProcesses.median(ys))));
        return Files.writeString(dir.resolve(file), c.render());
    }

    static List<Path> write(Path dir, Plan plan, List<Point> points, String mode, List<String> notes)
            throws IOException {
        Map<String, Object> head = new LinkedHashMap<>();
        head.put("parts", plan.parts());
        head.put("pingSizes", plan.pingSizes());
        head.put("smallSizes", plan.smallSizes());
        head.put("bufferSizes", plan.bufferSizes());
        head.put("buffers", plan.buffers());
        head.put("largeSizes", plan.largeSizes());
        head.put("largeBuffers", plan.largeBuffers());
        head.put("opcodeSizes", plan.opcodeSizes());
        head.put("repeats", plan.repeats());
        head.put("secondsPerPoint", plan.seconds());
        head.put("maxInline", MAX_INLINE);
        List<Path> files = ExperimentData.write(dir, SCHEMA, mode, head, notes, Point.class, points);
        String size = "message size, bytes";
        String buffers = "outstanding buffers (send queue depth)";
        String oneWay = "one-way time per message, µs";
        Function<Point, String> opcodeSeries = p -> opcodeLabel(p.opcode()) + options(p);
        Function<Point, String> sizeSeries = p -> SizeText.of(p.size()) + (p.postList() > 1 ? ", post lists" : "")
                + (p.part().equals("buffers-large") ? options(p) : "");
        Function<Point, String> signalSeries = p -> (p.postList() > 1 ? "post lists" : "one WR per post")
                + (p.cqMod() > 1 ? ", periodic signaling" : ", full signaling");
        if (has(points, "ping")) {
            files.add(chart(dir, "ping-one-way.svg", "Ping: one-way time by size (seed 003 Fig. 1b)", size, oneWay,
                    points, "ping", opcodeSeries, Point::size, Point::oneWayUs));
            files.add(chart(dir, "ping-cpu.svg", "Ping: client CPU by size (seed 003 Fig. 1a)", size,
                    "client threads' CPU, % of one CPU", points, "ping", opcodeSeries, Point::size, Point::activeCpuPct));
        }
        if (has(points, "blast-small")) {
            files.add(chart(dir, "blast-small-one-way.svg", "Blast, one buffer: one-way time by size (seed 003 Fig. 2a)",
                    size, oneWay, points, "blast-small", opcodeSeries, Point::size, Point::oneWayUs));
            files.add(chart(dir, "blast-small-gbps.svg", "Blast, one buffer: throughput by size (seed 003 Fig. 2b)",
                    size, "Gb/s", points, "blast-small", opcodeSeries, Point::size, Point::gbps));
        }
        if (has(points, "buffers")) {
            files.add(chart(dir, "buffers-one-way.svg", "Blast, RDMA WRITE, small messages: one-way time by buffers "
                    + "(seed 003 Fig. 3a, 3c)", buffers, oneWay, points, "buffers", sizeSeries, Point::buffers,
                    Point::oneWayUs));
            files.add(chart(dir, "buffers-gbps.svg", "Blast, RDMA WRITE, small messages: throughput by buffers (seed 003 "
                    + "Fig. 3b, 3d)", buffers, "Gb/s", points, "buffers", sizeSeries, Point::buffers, Point::gbps));
        }
        if (has(points, "buffers-large")) {
            files.add(chart(dir, "buffers-large-gbps.svg", "Blast, RDMA WRITE, large messages: throughput by buffers "
                    + "(seed 003 Fig. 4c)", buffers, "Gb/s", points, "buffers-large", sizeSeries, Point::buffers,
                    Point::gbps));
            files.add(chart(dir, "buffers-large-cpu.svg", "Blast, RDMA WRITE, large messages: client CPU by buffers "
                    + "(seed 003 Fig. 4a)", buffers, "client threads' CPU, % of one CPU", points, "buffers-large",
                    sizeSeries, Point::buffers, Point::activeCpuPct));
        }
        if (has(points, "opcodes-large")) {
            files.add(chart(dir, "opcodes-large-gbps.svg", "Blast, 4 buffers: throughput by size (seed 003 Fig. 5d)",
                    size, "Gb/s", points, "opcodes-large", opcodeSeries, Point::size, Point::gbps));
            files.add(chart(dir, "opcodes-large-passive-cpu.svg", "Blast, 4 buffers: passive side's CPU by size (seed "
                    + "003 Fig. 5b)", size, "server threads' CPU, % of one CPU", points, "opcodes-large", opcodeSeries,
                    Point::size, Point::passiveCpuPct));
        }
        if (has(points, "signaling")) {
            files.add(chart(dir, "signaling-one-way.svg", "Blast, RDMA WRITE, 16 B: one-way time by buffers and "
                    + "signaling (seed 003 Fig. 6a)", buffers, oneWay, points, "signaling", signalSeries, Point::buffers,
                    Point::oneWayUs));
            files.add(chart(dir, "signaling-gbps.svg", "Blast, RDMA WRITE, 16 B: throughput by buffers and signaling "
                    + "(seed 003 Fig. 6b)", buffers, "Gb/s", points, "signaling", signalSeries, Point::buffers,
                    Point::gbps));
        }
        files.add(Files.writeString(dir.resolve("README.md"), readme(plan, points, mode, notes)));
        return files;
    }

    private static boolean has(List<Point> points, String part) {
        return points.stream().anyMatch(p -> p.part().equals(part));
    }

    private static double median(List<Point> points, Predicate<Point> which, ToDoubleFunction<Point> value) {
        return ExperimentProcesses.median(points, which, value);
    }

    private static String readme(Plan plan, List<Point> points, String mode, List<String> notes) {
        StringBuilder md = new StringBuilder("# Verbs options: ping and blast (seed 003, Fig. 1-6)\n\n");
        md.append("Mode: ").append(mode).append(String.format(Locale.ROOT, ". Each point is one perf test run "
                + "(`jwarp send-lat|write-imm-lat` for ping, `jwarp send-bw|write-bw|write-imm-bw|read-bw` for blast, "
                + "`--loopback --cpu_util%s`, %.1f s measured after the test's warm-up), in the experiment's process: "
                + "both devices over 127.0.0.1, the client (active side) and the server (passive side) application "
                + "threads `jwarp-perf-client` and `jwarp-perf-server`%s. One-way time: ping, half the round trip (average); "
                + "blast, the measured time / the messages. CPU: the side's threads' CPU time (application and engine "
                + "threads, user + system) over the measured time, %% of one CPU. Inline: `-I %d` (jwarp's largest); "
                + "buffers: `-t` (READ: `-o` too); post lists: `-l BUFFERS`; periodic signaling: `-Q BUFFERS/2`; "
                + "events: `-e`. %d run(s) per point; medians.%n%n", pinning() == null ? "" : " --pin " + pinning(),
                plan.seconds(), pinning() == null ? "" : ", the client's threads (application and engine) pinned to CPU "
                        + "0 and the server's to CPU 1, as the paper's two hosts", MAX_INLINE, plan.repeats()));
        for (String n : notes) {
            md.append("- ").append(n).append('\n');
        }
        md.append("\n| part | opcode | inline | polling | size | buffers | WRs per post | signal every | one-way, µs "
                + "| Gb/s | client CPU % | server CPU % |\n|---|---|---|---|---|---|---|---|---|---|---|---|\n");
        List<Point> firsts = points.stream().filter(p -> p.repeat() == 0).toList();
        for (Point f : firsts) {
            Predicate<Point> same = p -> p.part().equals(f.part()) && p.opcode().equals(f.opcode())
                    && p.inline() == f.inline() && p.events() == f.events() && p.size() == f.size()
                    && p.buffers() == f.buffers() && p.postList() == f.postList() && p.cqMod() == f.cqMod();
            md.append(String.format(Locale.ROOT, "| %s | %s | %s | %s | %s | %d | %d | %d | %.2f | %.3f | %.0f | %.0f |%n",
                    f.part(), opcodeLabel(f.opcode()), f.inline() ? "yes" : "no", f.events() ? "events" : "busy",
                    SizeText.of(f.size()), f.buffers(), f.postList(), f.cqMod(), median(points, same, Point::oneWayUs),
                    median(points, same, Point::gbps), median(points, same, Point::activeCpuPct),
                    median(points, same, Point::passiveCpuPct)));
        }
        md.append("\nPlots: ").append(String.join(", ", plotNames(points))).append(". Data: `results.csv`, ")
                .append("`results.json` (").append(SCHEMA).append(").\n");
        return md.toString();
    }

    private static List<String> plotNames(List<Point> points) {
        List<String> names = new ArrayList<>();
        for (String part : PARTS) {
            if (has(points, part)) {
                names.add("`" + part + "-*.svg`");
            }
        }
        return names;
    }
}
