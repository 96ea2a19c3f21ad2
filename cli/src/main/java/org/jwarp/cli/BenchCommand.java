package org.jwarp.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.jwarp.bench.json.JsonCodec;
import org.jwarp.bench.perf.ResultRow;
import org.jwarp.bench.perf.Settings;
import org.jwarp.bench.perf.TestKind;
import org.jwarp.bench.perf.TransportKind;
import org.jwarp.bench.report.Progress;
import org.jwarp.bench.run.CPingPong;
import org.jwarp.bench.run.LoopbackRun;
import org.jwarp.bench.run.PerfRunner;
import org.jwarp.bench.run.Placement;
import org.jwarp.bench.transport.jwarp.JwarpOptions;
import org.jwarp.engine.affinity.Cpus;
import org.jwarp.engine.affinity.ThreadAffinity;
import org.jwarp.engine.io.SocketDescriptor;
import org.jwarp.engine.io.Uring;
import org.jwarp.engine.provider.JwarpConfig;
import org.jwarp.engine.provider.JwarpConfigBuilder;
import org.jwarp.verbs.DeviceConfig;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/**
 * {@code jwarp bench}: the engine against the sockets it runs on, in one run: a 64 KiB WRITE
 * stream, a 64 B WRITE message rate with post lists of 16, an 8 B WRITE ping-pong, and the passive
 * side's CPU under 1 MiB READs; each jwarp socket I/O layer and its sockets baseline measured in
 * turn, pair after pair, the order alternating, and every figure given as the median of the pairs
 * with its quartiles, beside the median of the per-pair ratios. By default as two processes with
 * default options (a server process started for each run, this process the client), the way
 * users run perftest; {@code --loopback} runs both ends in this process. The ping-pong has a
 * second baseline where a C compiler is present: {@link CPingPong}, the same loop in C. With
 * {@code --toad} every run is placed in seed 001's arrangement ({@link Placement#toad}). Last, the
 * connection setup lines ({@link BenchSetupLines}): connections per second against TCP connect
 * plus a request and reply, serially and many in flight.
 */
@Command(name = "bench", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"The engine against its sockets baselines, interleaved: 64 KiB WRITE stream, 64 B WRITE "
                + "rate (post list 16), 8 B WRITE ping-pong, passive side of 1 MiB READs; every socket I/O layer; "
                + "connections per second (serial, 64 in flight) against TCP connect + request/reply; "
                + "medians and quartiles of --pairs runs, and the median of the per-pair ratios.",
                "Two processes with default options (each run starts a server process), or --loopback."})
final class BenchCommand implements Callable<Integer> {

    static final String JSON_SCHEMA = "jwarp-bench/1";
    static final int MAX_PAIRS = 99;
    /** The ping-pong's second baseline: {@link CPingPong}, C busy-polling the same kernel TCP. */
    static final String C_BASELINE = "c-busypoll";

    @Spec
    CommandSpec spec;

    @Option(names = "--loopback", description = "Both ends in this process (default: a server process per run).")
    boolean loopback;

    @Option(names = "--pairs", paramLabel = "N", description = "Runs of each variant, interleaved (default 5;"
            + " --quick: 3).")
    Integer pairsOption;

    @Option(names = "--seconds", paramLabel = "S", description = "Duration of each bandwidth run (default 3;"
            + " --quick: 1).")
    Integer secondsOption;

    @Option(names = "--rounds", paramLabel = "N", description = "Round trips of each ping-pong run (default 20000;"
            + " --quick: 5000).")
    Integer roundsOption;

    @Option(names = "--quick", description = "Fewer and shorter runs (3 pairs of 1 s; with every layer about 6 min"
            + " here, less with --io): a look, not a measurement.")
    boolean quick;

    private int pairs;
    private int seconds;
    private int rounds;

    @Option(names = "--io", paramLabel = "LAYER,...", split = ",", description = "The jwarp socket I/O layers to"
            + " measure: syscalls, uring, uring-sqpoll, nio (default: each of them that works here).")
    List<String> io;

    @Option(names = "--only", paramLabel = "CASE,...", split = ",", description = "Run only these cases: stream,"
            + " rate, pingpong, read, setup (default: all of them).")
    List<String> only;

    @Option(names = "--json", description = "Print one JSON document (schema " + JSON_SCHEMA + ") instead of the table.")
    boolean json;

    @Option(names = "--toad", description = "Run jwarp in seed 001's TOAD arrangement (--threading toad: an engine"
            + " thread on a CPU of its own, the application on another; each process the other way round), and"
            + " pin the sockets baselines' application threads the same way (default: defaults, nothing pinned).")
    boolean toad;

    /** A line of issue 13's table: a workload, its baseline transport, and the figures it reports. */
    enum Case {
        STREAM("64 KiB WRITE stream", TestKind.WRITE_BW, 65536, 1, TransportKind.SOCKETS_NIO),
        RATE("64 B WRITE rate, post list 16", TestKind.WRITE_BW, 64, 16, TransportKind.SOCKETS_NIO),
        PINGPONG("8 B WRITE ping-pong", TestKind.WRITE_LAT, 8, 1, TransportKind.SOCKETS_BUSYPOLL),
        READ_PASSIVE("1 MiB READ, passive side", TestKind.READ_BW, 1 << 20, 1, null);

        /** The case's name for {@code --only}. */
        String option() {
            return switch (this) {
                case STREAM -> "stream";
                case RATE -> "rate";
                case PINGPONG -> "pingpong";
                case READ_PASSIVE -> "read";
            };
        }

        final String label;
        final TestKind test;
        final int size;
        final int postList;
        final TransportKind baseline;

        Case(String label, TestKind test, int size, int postList, TransportKind baseline) {
            this.label = label;
            this.test = test;
            this.size = size;
            this.postList = postList;
            this.baseline = baseline;
        }
    }

    /** What one run gave: the main figure, and a second one (CPU per Gb/s, or the 99th percentile). */
    record Figures(double main, double second) {
    }

    @Override
    public Integer call() throws Exception {
        pairs = pairsOption != null ? pairsOption : quick ? 3 : 5;
        seconds = secondsOption != null ? secondsOption : quick ? 1 : 3;
        rounds = roundsOption != null ? roundsOption : quick ? 5000 : 20_000;
        if (pairs < 1 || pairs > MAX_PAIRS) {
            throw bad("--pairs must be 1 to " + MAX_PAIRS + ", not " + pairs);
        }
        if (seconds < 1 || seconds > 600) {
            throw bad("--seconds must be 1 to 600, not " + seconds);
        }
        if (rounds < 100) {
            throw bad("--rounds must be at least 100, not " + rounds);
        }
        List<JwarpConfig.SocketIo> layers = layers();
        List<Case> cases = cases();
        boolean setup = only == null || only.contains("setup");
        cpus = ThreadAffinity.getAffinity().orElse(null);
        if (toad) {
            String why = !ThreadAffinity.isSupported() ? ThreadAffinity.unsupportedReason()
                    : Runtime.getRuntime().availableProcessors() < 2 ? "it needs two CPUs" : null;
            if (why == null && cpus == null) {
                why = "this process's CPUs cannot be read";
            }
            if (why != null) {
                throw bad("--toad is not possible here: " + why);
            }
        }
        PrintWriter out = json ? new PrintWriter(java.io.Writer.nullWriter()) : spec.commandLine().getOut();
        long t0 = System.nanoTime();
        out.println("jwarp bench: the engine against the sockets it runs on, "
                + (loopback ? "both ends in this process (--loopback)" : "two processes with default options (a "
                + "server process per run, this process the client), 127.0.0.1")
                + "; " + pairs + " pairs, order alternating");
        out.println("  jwarp  : " + new JwarpOptions(config(JwarpConfig.SocketIo.AUTO), List.of(), false, false)
                .describe() + "; socket I/O " + String.join(", ", layers.stream().map(JwarpConfig.SocketIo::option)
                .toList()));
        out.println("  threads: " + (toad ? "toad: " + describe(placement(1)) + (loopback ? "" : " (server "
                + "process: the other way round)") : "not pinned") + "; " + Runtime.getRuntime().availableProcessors()
                + " CPUs");
        out.println();
        out.printf(Locale.ROOT, " %-30s %-16s %-30s %-26s %-18s%n", "case", "variant", "median [quartiles]",
                "second figure", "ratio to baseline");
        out.flush();
        List<BenchDocument.Row> rows = new ArrayList<>();
        boolean verified = true;
        String cWhy = CPingPong.why();
        if (cWhy != null) {
            out.println("  " + C_BASELINE + ": not measured: " + cWhy);
        }
        try (Progress progress = Progress.forTerminal()) {
            int caseIndex = 0;
            for (Case c : cases) {
                progress.size(caseIndex++, cases.size(), c.size, 0);
                List<String> variants = new ArrayList<>();
                for (JwarpConfig.SocketIo l : layers) {
                    variants.add(l.option());
                }
                int baseline = -1;
                int cBaseline = -1;
                if (c.baseline != null) {
                    baseline = variants.size();
                    variants.add(c.baseline.option());
                }
                if (c == Case.PINGPONG && cWhy == null) {
                    cBaseline = variants.size();
                    variants.add(C_BASELINE);
                }
                double[][] main = new double[variants.size()][pairs];
                double[][] second = new double[variants.size()][pairs];
                for (int p = 0; p < pairs; p++) {
                    for (int k = 0; k < variants.size(); k++) {
                        // the order alternates, so that a trend in the machine's load favours no variant
                        int v = p % 2 == 0 ? k : variants.size() - 1 - k;
                        Figures f;
                        if (v == cBaseline) {
                            CPingPong.Result r = CPingPong.run(c.size, rounds, rounds / 4);
                            f = new Figures(r.typicalMicros(), r.p99Micros());
                        } else {
                            ResultRow r = run(c, v == baseline ? c.baseline : TransportKind.JWARP,
                                    v == baseline ? null : layers.get(v));
                            verified &= r.verified();
                            f = figures(c, r);
                        }
                        main[v][p] = f.main();
                        second[v][p] = f.second();
                    }
                }
                progress.clear();
                for (int v = 0; v < variants.size(); v++) {
                    double[] ratio = v < layers.size() && baseline >= 0 ? ratios(main[v], main[baseline]) : null;
                    double[] ratioToC = cBaseline >= 0 && v != cBaseline ? ratios(main[v], main[cBaseline]) : null;
                    out.println(line(c, variants.get(v), main[v], second[v], ratio, ratioToC));
                    rows.add(jsonRow(c, variants.get(v), main[v], second[v], ratio, ratioToC));
                }
                out.flush();
            }
            if (setup) {
                progress.step(cases.size(), cases.size() + 1, "connection setup", 0);
                rows.addAll(BenchSetupLines.run(out, pairs, quick, layers.getFirst(),
                        java.time.Duration.ofSeconds(BenchSetupLines.WARM_UP_PER_SECOND * seconds)));
            }
            progress.clear();
        }
        out.println();
        out.println(" stream and rate: MB/s (2^20 B/s), second figure the sending side's % of one CPU per Gb/s");
        out.println(" (application and engine threads); ping-pong: typical one-way µs, second figure the 99th");
        out.println(" percentile; READ: the passive side's application thread, % of one CPU per Gb/s (second:");
        out.println(" its engine's). Ratio: jwarp / baseline per pair; for the ping-pong, lower is better, and");
        out.println(" 'to C' is the variant / " + C_BASELINE + " (two C processes, busy-polling 127.0.0.1) per pair.");
        out.println(" connection setup: connections established per second (jwarp: MPA Request and Reply with "
                + BenchSetupLines.PRIVATE_DATA + " B of");
        out.println(" private data, the RTR, both QPs in RTS; sockets: TCP connect and a " + BenchSetupLines.PRIVATE_DATA
                + " B request and reply), two processes,");
        out.println(" " + layers.getFirst().option() + "; second figure this process's CPU per connection; ratio jwarp /"
                + " sockets per pair.");
        out.printf(Locale.ROOT, " data verified: %s; %.0f s%n", verified ? "yes" : "NO", (System.nanoTime() - t0) / 1e9);
        out.flush();
        if (json) {
            BenchDocument doc = new BenchDocument(JSON_SCHEMA, loopback ? "loopback" : "two processes",
                    toad ? "toad" : "not pinned", pairs, seconds, rounds, Runtime.getRuntime().availableProcessors(),
                    verified, (System.nanoTime() - t0) / 1e9, rows);
            PrintWriter real = spec.commandLine().getOut();
            real.println(JsonCodec.write(doc));
            real.flush();
        }
        return verified ? 0 : 1;
    }

    /** The cases {@code --only} names (all of them without it); "setup" is the setup lines'. */
    private List<Case> cases() {
        if (only == null) {
            return List.of(Case.values());
        }
        List<String> names = new ArrayList<>(List.of("setup"));
        for (Case c : Case.values()) {
            names.add(c.option());
        }
        for (String name : only) {
            if (!names.contains(name)) {
                throw bad("--only takes stream, rate, pingpong, read or setup, not '" + name + "'");
            }
        }
        return java.util.Arrays.stream(Case.values()).filter(c -> only.contains(c.option())).toList();
    }

    private List<JwarpConfig.SocketIo> layers() {
        List<JwarpConfig.SocketIo> out = new ArrayList<>();
        if (io == null) {
            for (JwarpConfig.SocketIo l : JwarpConfig.SocketIo.values()) {
                if (l != JwarpConfig.SocketIo.AUTO && whyNot(l) == null) {
                    out.add(l);
                }
            }
            return out;
        }
        for (String name : io) {
            JwarpConfig.SocketIo l;
            try {
                l = JwarpConfig.SocketIo.parse(name);
            } catch (IllegalArgumentException e) {
                throw bad("--io takes syscalls, uring, uring-sqpoll or nio, not '" + name + "'");
            }
            if (l == JwarpConfig.SocketIo.AUTO) {
                throw bad("--io takes syscalls, uring, uring-sqpoll or nio, not auto: name the layers to compare");
            }
            String why = whyNot(l);
            if (why != null) {
                throw bad("--io " + l.option() + " is not available here: " + why);
            }
            if (!out.contains(l)) {
                out.add(l);
            }
        }
        return out;
    }

    /** Null if a device can run on {@code layer} here, else why not. */
    private static String whyNot(JwarpConfig.SocketIo layer) {
        if (layer == JwarpConfig.SocketIo.NIO) {
            return null;
        }
        if (SocketDescriptor.why() != null) {
            return SocketDescriptor.why();
        }
        return layer == JwarpConfig.SocketIo.SYSCALLS ? null
                : Uring.why(layer == JwarpConfig.SocketIo.URING_SQPOLL);
    }

    private Settings settings(Case c, TransportKind transport) {
        boolean lat = c.test.isLatency();
        int tx = lat ? 1 : 128;
        int outstanding = 16;
        int mod = lat ? 1 : Math.min(100, c.test.verb().isRequestResponse() ? outstanding : tx);
        return new Settings(c.test, transport, false, c.size, lat ? rounds : 5000, lat, lat ? 0 : seconds * 1000L,
                tx, lat ? 16 : 512, lat ? 64 : 0, false, c.postList, mod, 1, outstanding).check();
    }

    /** One run of {@code c} over {@code transport} ({@code layer}: jwarp's socket I/O, else null). */
    private ResultRow run(Case c, TransportKind transport, JwarpConfig.SocketIo layer) throws IOException,
            InterruptedException {
        Settings s = settings(c, transport);
        JwarpOptions options = new JwarpOptions(config(layer != null ? layer : JwarpConfig.SocketIo.AUTO), List.of(),
                false, toad && transport == TransportKind.JWARP && DeviceOptions.toadSharesCpus());
        Placement placement = placement(transport == TransportKind.JWARP ? 1 : 0);
        PerfRunner.Listener quiet = new PerfRunner.Listener() {
            @Override
            public void connected(Settings settings, List<String> description) {
            }

            @Override
            public void row(ResultRow row) {
            }
        };
        if (loopback) {
            return PerfRunner.loopback(s, options, 0, placement, quiet).rows().getFirst();
        }
        ServerProcess server = ServerProcess.start(perfServer(c.test, transport, layer));
        try {
            ResultRow r = PerfRunner.client(s, options, server.address(), placement, quiet).rows().getFirst();
            server.awaitExit();
            return r;
        } finally {
            server.destroy();
            unpin();
        }
    }

    /**
     * A perf server as a user would start it: the test, the transport, and (for jwarp) the socket
     * I/O layer; every other option its default.
     */
    private List<String> perfServer(TestKind test, TransportKind transport, JwarpConfig.SocketIo layer) {
        List<String> args = new ArrayList<>(List.of(test.command(), "--transport", transport.option()));
        if (layer != null) {
            args.addAll(List.of("--io", layer.option()));
        }
        if (toad) {
            args.addAll(List.of("--threading", "toad"));
        }
        args.addAll(List.of("-p", "0"));
        return args;
    }

    /** The device every jwarp run opens: defaults, or the TOAD arrangement's single dedicated engine thread. */
    private DeviceConfig config(JwarpConfig.SocketIo layer) {
        JwarpConfigBuilder b = JwarpConfig.builder().socketIo(layer);
        if (toad) {
            b.threadingMode(JwarpConfig.ThreadingMode.DEDICATED).engineThreads(1).idleStrategy(DeviceOptions.toadIdle());
        }
        return DeviceConfig.builder().provider(b.build()).build();
    }

    /**
     * The CPUs this process may use, read before any run pinned this thread: a client run pins the
     * calling thread, and the next run's server process, started from it, would inherit that pin.
     */
    private Cpus cpus;

    /** Where this process's threads go: nowhere in particular, or the TOAD arrangement's CPUs. */
    private Placement placement(int engineThreads) {
        if (!toad) {
            return Placement.NONE;
        }
        return Placement.toad(cpus.toList(), loopback, false, engineThreads);
    }

    /** After a run that pinned this thread (the client's application thread): every CPU again. */
    private void unpin() {
        if (toad && cpus != null && !ThreadAffinity.setAffinity(cpus)) {
            throw new IllegalStateException("cannot give the benchmark thread its CPUs back: "
                    + ThreadAffinity.unsupportedReason());
        }
    }

    private String describe(Placement p) {
        return loopback ? "client application on CPU " + p.clientApp() + " and its engine on " + p.clientEngine()
                + ", server application on CPU " + p.serverApp() + " and its engine on " + p.serverEngine()
                : "application on CPU " + p.clientApp() + ", engine on " + p.clientEngine();
    }

    private static Figures figures(Case c, ResultRow r) {
        return switch (c) {
            case STREAM, RATE -> new Figures(r.bwAverage() / (1 << 20), r.cpuPerGbps(r.tx(), false));
            case PINGPONG -> new Figures(r.latency().typical(), r.latency().p99());
            case READ_PASSIVE -> {
                // the passive side is the server: its application thread should do nothing
                double gbps = r.gbps();
                yield new Figures(ResultRow.appPercent(r.server()) / gbps, ResultRow.enginePercent(r.server()) / gbps);
            }
        };
    }

    /** Per-pair ratios {@code a[p] / b[p]}. */
    private static double[] ratios(double[] a, double[] b) {
        double[] r = new double[a.length];
        for (int p = 0; p < a.length; p++) {
            r[p] = a[p] / b[p];
        }
        return r;
    }

    private static String line(Case c, String variant, double[] main, double[] second, double[] ratio,
                               double[] ratioToC) {
        LoopbackRun.Spread m = LoopbackRun.Spread.of(main);
        LoopbackRun.Spread s = LoopbackRun.Spread.of(second);
        String unit = switch (c) {
            case STREAM, RATE -> " MB/s";
            case PINGPONG -> " µs";
            case READ_PASSIVE -> " %/Gb/s";
        };
        String secondText = switch (c) {
            case STREAM, RATE -> String.format(Locale.ROOT, "%.2f %%CPU/Gb/s", s.median());
            case PINGPONG -> String.format(Locale.ROOT, "p99 %.2f µs", s.median());
            case READ_PASSIVE -> String.format(Locale.ROOT, "engine %.2f %%/Gb/s", s.median());
        };
        int decimals = c == Case.STREAM || c == Case.RATE ? 0 : 2;
        return String.format(Locale.ROOT, " %-30s %-16s %-30s %-26s %-18s%s", c.label, variant,
                m.format(decimals) + unit, secondText, ratio == null ? "" : LoopbackRun.Spread.of(ratio).toString(),
                ratioToC == null ? "" : "  to C: " + LoopbackRun.Spread.of(ratioToC));
    }

    private static BenchDocument.Row jsonRow(Case c, String variant, double[] main, double[] second, double[] ratio,
                                             double[] ratioToC) {
        String unit = switch (c) {
            case STREAM, RATE -> "MB/s";
            case PINGPONG -> "us one-way, typical";
            case READ_PASSIVE -> "% of one CPU per Gb/s, passive application thread";
        };
        String secondUnit = switch (c) {
            case STREAM, RATE -> "% of one CPU per Gb/s, sending side";
            case PINGPONG -> "us one-way, 99th percentile";
            case READ_PASSIVE -> "% of one CPU per Gb/s, passive engine";
        };
        return new BenchDocument.Row(c.name().toLowerCase(Locale.ROOT), c.label, variant, unit, FigureRuns.of(main),
                secondUnit, FigureRuns.of(second), ratio == null ? null : FigureRuns.of(ratio),
                ratioToC == null ? null : FigureRuns.of(ratioToC));
    }

    private CommandLine.ParameterException bad(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }
}
