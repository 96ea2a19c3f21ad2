package org.jwarp.bench.experiments;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;
import org.jwarp.bench.experiment.CycleSoaker;
import org.jwarp.bench.experiment.SvgChart;
import org.jwarp.bench.report.PerfDocument;

/**
 * Seed 002's measurements (Tables 1 and 2, Figures 2 to 4): latency (half an RDMA WRITE ping-pong)
 * and throughput (a one-way stream of RDMA WRITEs) between two jwarp peers with MPA CRC on and off,
 * against the same workloads between two Java TCP sockets; and, during the throughput runs, each
 * side's CPU by message size, measured twice: by the threads' CPU time (what each side's perf test
 * reports) and, as the paper did, by a low-priority cycle soaker on each side's CPU. Every point is
 * a {@code jwarp write-lat} or {@code write-bw} server and client, each a process of its own, the
 * server on one CPU and the client on the other.
 */
public final class IwarpVsTcpExperiment {

    public static final String SCHEMA = "jwarp-experiment-iwarp-vs-tcp/1";

    /** The paper's figures, from its text (seed 002 §5.2 to §5.5). */
    static final double PAPER_TCP_LAT_4 = 16.9;
    static final double PAPER_TCP_LAT_64K = 594.8;
    static final double PAPER_KSW_HW_LAT_4 = 18.7;
    static final double PAPER_KSW_HW_LAT_64K = 619.7;
    static final double PAPER_KERNEL_CRC_LAT_4 = 20.3;
    static final double PAPER_KERNEL_CRC_LAT_64K = 615.5;
    static final double PAPER_KERNEL_NOCRC_LAT_4 = 20.1;
    static final double PAPER_KERNEL_NOCRC_LAT_64K = 604.5;
    static final double PAPER_CRC_PENALTY_MBPS = 8;
    static final double PAPER_TCP_ABOVE_IWARP_MBPS = 10;
    static final double PAPER_KERNEL_VS_USER_LATENCY_PCT = 4;

    /**
     * A stack: how its latency and throughput runs are spelled. TCP's latency run busy-polls as
     * jwarp's does (a ping-pong is timed by whoever notices the reply first); its throughput run
     * blocks in read and write, as jwarp's sleeps on completion events (-e), so that the CPU either
     * side uses is the work the transfer needs, not polling.
     */
    record Stack(String name, String label, String latencyTransport, String throughputTransport, List<String> device) {
        boolean jwarp() {
            return latencyTransport.equals("jwarp");
        }
    }

    static final List<Stack> STACKS = List.of(
            new Stack("jwarp-crc", "jwarp, MPA CRC on", "jwarp", "jwarp", List.of("--crc", "on")),
            new Stack("jwarp-nocrc", "jwarp, MPA CRC off", "jwarp", "jwarp", List.of("--crc", "off")),
            new Stack("tcp", "Java TCP sockets", "sockets-busypoll", "sockets-blocking", List.of()));

    /** What runs. */
    record Plan(List<Integer> latencySizes, List<Integer> throughputSizes, int repeats, long roundTrips,
                double seconds, long calibrateMillis) {

        static Plan quick() {
            return new Plan(List.of(4, 65536), List.of(4096, 65536), 1, 2000, 1, 700);
        }

        static Plan full() {
            return new Plan(List.of(4, 64, 1024, 16384, 65536), List.of(256, 1024, 4096, 16384, 65536, 262144), 3,
                    10000, 3, 2000);
        }
    }

    /**
     * Where each side runs: the server (receiver of the stream) on one CPU, the client (sender) on
     * another, and a soaker on each of them; on a machine with one CPU or no taskset, nothing is
     * pinned and each side's soaker figure is the whole machine's load.
     */
    record Pinning(ExperimentProcesses.Hosts hosts, List<Integer> soakCpus, String description) {

        static Pinning forThisMachine() {
            int n = Runtime.getRuntime().availableProcessors();
            if (n >= 2 && new File("/usr/bin/taskset").canExecute()) {
                return new Pinning(new ExperimentProcesses.Hosts(List.of("taskset", "-c", "0"),
                        List.of("taskset", "-c", "1"), "127.0.0.1"), List.of(0, 1),
                        "server (the stream's receiver) process on CPU 0, client (sender) process on CPU 1 (taskset), "
                                + "over 127.0.0.1; a cycle soaker on each of the two CPUs");
            }
            List<Integer> all = new ArrayList<>();
            for (int i = 0; i < n; i++) {
                all.add(i);
            }
            return new Pinning(ExperimentProcesses.Hosts.loopback(), all, "not pinned (" + n + " CPU" + (n == 1 ? "" : "s")
                    + (n >= 2 ? ", no taskset" : "") + "): each side's soaker figure is the whole machine's load");
        }

        boolean pinned() {
            return !hosts.serverPrefix().isEmpty();
        }

        /** % of one CPU the side took, by the soakers between {@code a} and {@code b}. */
        double load(boolean server, CycleSoaker.Snapshot a, CycleSoaker.Snapshot b, double[] idle) {
            if (pinned()) {
                int i = server ? 0 : 1;
                return CycleSoaker.loadPercent(a, b, i, idle[i]);
            }
            double sum = 0;
            for (int i = 0; i < idle.length; i++) {
                sum += CycleSoaker.loadPercent(a, b, i, idle[i]);
            }
            return sum;
        }
    }

    /** One measured point; figures that do not apply are NaN. */
    public record Point(String part, String stack, int size, int repeat, long iterations, double typicalUs, double p99Us,
                 double gbps, double clientAppPct, double clientEnginePct, double serverAppPct, double serverEnginePct,
                 double clientSoakPct, double serverSoakPct) {

        double clientThreadPct() {
            return clientAppPct + clientEnginePct;
        }

        double serverThreadPct() {
            return serverAppPct + serverEnginePct;
        }
    }

    private IwarpVsTcpExperiment() {
    }

    /** The latency runs: a ping-pong of each size, each stack, interleaved, repeated. */
    static List<Point> latency(JwarpTool jwarp, Plan plan, Pinning pin, Consumer<Point> progress) throws IOException,
            InterruptedException {
        List<Point> out = new ArrayList<>();
        for (int r = 0; r < plan.repeats(); r++) {
            for (int size : plan.latencySizes()) {
                for (Stack st : STACKS) {
                    PerfDocument doc = ExperimentProcesses.perf(jwarp, pin.hosts(), "write-lat", st.latencyTransport(),
                            st.device(), List.of("-s", Integer.toString(size), "-n", Long.toString(plan.roundTrips())),
                            line -> { });
                    checkCrc(st, doc);
                    PerfDocument.LatencyUs l = ExperimentProcesses.latency(doc);
                    PerfDocument.Cpu cpu = doc.first().cpu();
                    Point p = new Point("latency", st.name(), size, r, plan.roundTrips(), l.typical(), l.p99(),
                            Double.NaN, cpu.clientAppPct(), cpu.clientEnginePct(), cpu.serverAppPct(),
                            cpu.serverEnginePct(), Double.NaN, Double.NaN);
                    out.add(p);
                    progress.accept(p);
                }
            }
        }
        return out;
    }

    /**
     * The throughput runs, each stack and size interleaved and repeated, with the soakers running:
     * calibrated on the idle machine before and after (the higher idle rate counts, the other having
     * been disturbed by something else), sampled over exactly each run's measured part.
     */
    static List<Point> throughput(JwarpTool jwarp, Plan plan, Pinning pin, List<String> notes, Consumer<Point> progress)
            throws IOException, InterruptedException {
        record Raw(Stack stack, int size, int repeat, PerfDocument doc, CycleSoaker.Snapshot a, CycleSoaker.Snapshot b) {
        }
        List<Raw> raws = new ArrayList<>();
        double[] idle;
        try (CycleSoaker soaker = new CycleSoaker(pin.soakCpus())) {
            idle = soaker.calibrate(plan.calibrateMillis());
            for (int r = 0; r < plan.repeats(); r++) {
                for (int size : plan.throughputSizes()) {
                    for (Stack st : STACKS) {
                        CycleSoaker.Snapshot[] window = new CycleSoaker.Snapshot[2];
                        List<String> args = new ArrayList<>(List.of("-s", Integer.toString(size), "-D",
                                Double.toString(plan.seconds()), "--mark"));
                        if (st.jwarp()) {
                            args.add("-e");
                        }
                        PerfDocument doc = ExperimentProcesses.perf(jwarp, pin.hosts(), "write-bw", st.throughputTransport(),
                                st.device(), args, line -> {
                                    if (line.startsWith(JwarpTool.MEASURING)) {
                                        window[0] = soaker.snapshot();
                                    } else if (line.startsWith(JwarpTool.MEASURED)) {
                                        window[1] = soaker.snapshot();
                                    }
                                });
                        if (window[0] == null || window[1] == null) {
                            throw new IOException("the write-bw client marked no measured run (--mark)");
                        }
                        checkCrc(st, doc);
                        Raw raw = new Raw(st, size, r, doc, window[0], window[1]);
                        raws.add(raw);
                        progress.accept(throughputPoint(raw.stack(), size, r, doc, pin, raw.a(), raw.b(), idle));
                    }
                }
            }
            double[] after = soaker.calibrate(plan.calibrateMillis());
            for (int i = 0; i < idle.length; i++) {
                notes.add(String.format(Locale.ROOT, "soaker on CPU %d: %.3g loops/s idle before the runs, %.3g after "
                                + "(%.0f %% apart: a soaker load within that of another is noise, e.g. a virtual CPU's "
                                + "varying speed)", pin.soakCpus().get(i), idle[i], after[i],
                        100 * Math.abs(idle[i] - after[i]) / Math.max(idle[i], after[i])));
                idle[i] = Math.max(idle[i], after[i]);
            }
            notes.add(soaker.lowestPriority() ? "soakers at nice 19 (setpriority), Java priority 1, each pinned to its CPU"
                    : "soakers could not lower their priority (setpriority failed): the loads read high");
        }
        List<Point> out = new ArrayList<>();
        for (Raw r : raws) {
            out.add(throughputPoint(r.stack(), r.size(), r.repeat(), r.doc(), pin, r.a(), r.b(), idle));
        }
        return out;
    }

    private static Point throughputPoint(Stack st, int size, int repeat, PerfDocument doc, Pinning pin,
                                         CycleSoaker.Snapshot a, CycleSoaker.Snapshot b, double[] idle) {
        PerfDocument.Row row = doc.first();
        PerfDocument.Cpu cpu = row.cpu();
        return new Point("throughput", st.name(), size, repeat, row.iterations(), Double.NaN, Double.NaN,
                row.bwAvgGbS(), cpu.clientAppPct(), cpu.clientEnginePct(), cpu.serverAppPct(), cpu.serverEnginePct(),
                pin.load(false, a, b, idle), pin.load(true, a, b, idle));
    }

    /** A jwarp run's setup line says whether MPA CRC was on: it must be what the stack asked for. */
    private static void checkCrc(Stack st, PerfDocument doc) throws IOException {
        if (st.jwarp()) {
            String want = st.device().contains("off") ? "CRC off" : "CRC on";
            if (doc.setup().stream().noneMatch(l -> l.contains(want))) {
                throw new IOException("the " + st.name() + " run did not negotiate " + want + ": " + doc.setup());
            }
        }
    }

    // ------------------------------------------------------------------ output

    static double median(List<Point> points, String part, String stack, int size, ToDoubleFunction<Point> figure) {
        List<Double> v = new ArrayList<>();
        for (Point p : points) {
            if (p.part().equals(part) && p.stack().equals(stack) && p.size() == size) {
                v.add(figure.applyAsDouble(p));
            }
        }
        return ExperimentProcesses.median(v);
    }

    static List<Path> write(Path dir, Plan plan, List<Point> points, String mode, List<String> notes)
            throws IOException {
        Map<String, Object> head = new LinkedHashMap<>();
        head.put("latencySizes", plan.latencySizes());
        head.put("throughputSizes", plan.throughputSizes());
        head.put("repeats", plan.repeats());
        head.put("roundTrips", plan.roundTrips());
        head.put("secondsPerRun", plan.seconds());
        List<Path> files = ExperimentData.write(dir, SCHEMA, mode, head, notes, Point.class, points);
        files.add(chart(dir, "latency-by-size.svg", "Ping-pong latency by message size (seed 002 Tables 1-2)",
                "one-way latency, µs (typical)", points, "latency", plan.latencySizes(), List.of(new Series("",
                        Point::typicalUs))));
        files.add(chart(dir, "throughput-by-size.svg", "Throughput by message size (seed 002 Fig. 2)", "Gb/s",
                points, "throughput", plan.throughputSizes(), List.of(new Series("", Point::gbps))));
        files.add(chart(dir, "cpu-soaker-by-size.svg", "CPU by message size, cycle soaker (seed 002 Fig. 4)",
                "% of one CPU taken from the soaker", points, "throughput", plan.throughputSizes(),
                List.of(new Series(", sender", Point::clientSoakPct), new Series(", receiver", Point::serverSoakPct))));
        files.add(chart(dir, "cpu-threads-by-size.svg", "CPU by message size, thread CPU time",
                "% of one CPU (application + engine threads)", points, "throughput", plan.throughputSizes(),
                List.of(new Series(", sender", Point::clientThreadPct),
                        new Series(", receiver", Point::serverThreadPct))));
        files.add(Files.writeString(dir.resolve("README.md"), readme(plan, points, mode, notes)));
        return files;
    }

    /** A series suffix and the figure it draws, for each stack. */
    record Series(String suffix, ToDoubleFunction<Point> figure) {
    }

    private static Path chart(Path dir, String file, String title, String yLabel, List<Point> points, String part,
                              List<Integer> sizes, List<Series> series) throws IOException {
        SvgChart c = new SvgChart(title, "message size, bytes", yLabel);
        for (Series s : series) {
            for (Stack st : STACKS) {
                for (int size : sizes) {
                    c.point(st.label() + s.suffix(), size, median(points, part, st.name(), size, s.figure()));
                }
            }
        }
        return Files.writeString(dir.resolve(file), c.render());
    }

    private static String readme(Plan plan, List<Point> points, String mode, List<String> notes) {
        StringBuilder md = new StringBuilder("# iWARP vs TCP: latency, throughput, CRC and CPU (seed 002)\n\n");
        md.append("Mode: ").append(mode).append(". Between two processes: `jwarp write-lat` (RDMA WRITE ping-pong, ")
                .append(plan.roundTrips()).append(" round trips, both sides polling) and `jwarp write-bw -e` (a one-way")
                .append(" stream of RDMA WRITEs for ").append(plan.seconds()).append(" s, completion events), each with ")
                .append("`--crc on` and `--crc off`, against the same over Java TCP sockets (`--transport ")
                .append("sockets-busypoll` ping-pong, `sockets-blocking` stream). CPU, during the stream: each side's ")
                .append("threads' CPU time (application + engine threads, as the perf tests report it) and, as the paper ")
                .append("measured it, the share of each side's CPU a lowest-priority cycle soaker did not get. ")
                .append(plan.repeats()).append(" run(s) per point; medians.\n\n");
        for (String n : notes) {
            md.append("- ").append(n).append('\n');
        }
        md.append("\n## Latency (Tables 1 and 2), one-way µs\n\n| size | jwarp CRC on | jwarp CRC off | TCP | CRC on / TCP "
                + "| paper: kernel sw iWARP CRC on / off | paper: tcp-tcp |\n|---|---|---|---|---|---|---|\n");
        for (int size : plan.latencySizes()) {
            double on = median(points, "latency", "jwarp-crc", size, Point::typicalUs);
            double off = median(points, "latency", "jwarp-nocrc", size, Point::typicalUs);
            double tcp = median(points, "latency", "tcp", size, Point::typicalUs);
            String paper = size == 4 ? PAPER_KERNEL_CRC_LAT_4 + " / " + PAPER_KERNEL_NOCRC_LAT_4 + " | " + PAPER_TCP_LAT_4
                    : size == 65536 ? PAPER_KERNEL_CRC_LAT_64K + " / " + PAPER_KERNEL_NOCRC_LAT_64K + " | "
                    + PAPER_TCP_LAT_64K : "– | –";
            md.append(String.format(Locale.ROOT, "| %d | %.2f | %.2f | %.2f | %.2f | %s |%n", size, on, off, tcp,
                    on / tcp, paper));
        }
        md.append(String.format(Locale.ROOT, "%nThe paper (1 GbE, 2005): kernel software iWARP to a hardware RNIC "
                + "%.1f µs at 4 B, %.1f µs at 64 kB; kernel vs user-space iWARP a %.0f %% latency penalty; CRC on vs off "
                + "no latency effect beyond the throughput-related one at 64 kB.%n", PAPER_KSW_HW_LAT_4,
                PAPER_KSW_HW_LAT_64K, PAPER_KERNEL_VS_USER_LATENCY_PCT));
        md.append("\n## Throughput (Fig. 2) and CPU (Fig. 4), during the stream\n\n| size | stack | Gb/s | CRC penalty, "
                + "Mb/s | sender CPU %, threads / soaker | receiver CPU %, threads / soaker |\n|---|---|---|---|---|---|\n");
        for (int size : plan.throughputSizes()) {
            double off = median(points, "throughput", "jwarp-nocrc", size, Point::gbps);
            for (Stack st : STACKS) {
                double g = median(points, "throughput", st.name(), size, Point::gbps);
                md.append(String.format(Locale.ROOT, "| %d | %s | %.3f | %s | %.0f / %.0f | %.0f / %.0f |%n", size,
                        st.name(), g, st.name().equals("jwarp-crc") ? String.format(Locale.ROOT, "%.0f", (off - g) * 1000)
                                : "", median(points, "throughput", st.name(), size, Point::clientThreadPct),
                        median(points, "throughput", st.name(), size, Point::clientSoakPct),
                        median(points, "throughput", st.name(), size, Point::serverThreadPct),
                        median(points, "throughput", st.name(), size, Point::serverSoakPct)));
            }
        }
        md.append(String.format(Locale.ROOT, "%nThe paper: the CRC cost software iWARP about %.0f Mb/s of throughput "
                + "(kernel and user space alike); TCP ran about %.0f Mb/s above software iWARP; the software iWARP host "
                + "ran near full CPU load, much of it the CRC, and without CRC its curves resembled TCP's. Its link was "
                + "1 Gb/s; here the link is loopback, so the CPU, not the wire, bounds the rate: compare CPU per "
                + "byte moved, not the absolute %%.%n", PAPER_CRC_PENALTY_MBPS, PAPER_TCP_ABOVE_IWARP_MBPS));
        md.append("\nPlots: `latency-by-size.svg`, `throughput-by-size.svg`, `cpu-soaker-by-size.svg`, "
                + "`cpu-threads-by-size.svg`. Data: `results.csv`, `results.json` (").append(SCHEMA).append(").\n");
        return md.toString();
    }
}
