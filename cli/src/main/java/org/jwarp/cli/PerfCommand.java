package org.jwarp.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import org.jwarp.bench.experiments.JwarpTool;
import org.jwarp.bench.json.JsonCodec;
import org.jwarp.bench.perf.PerfException;
import org.jwarp.bench.perf.ResultRow;
import org.jwarp.bench.perf.Settings;
import org.jwarp.bench.perf.TestKind;
import org.jwarp.bench.perf.TransportKind;
import org.jwarp.bench.report.Progress;
import org.jwarp.bench.report.Results;
import org.jwarp.bench.report.TextReport;
import org.jwarp.bench.run.Listening;
import org.jwarp.bench.run.PerfRunner;
import org.jwarp.bench.run.Placement;
import org.jwarp.bench.transport.jwarp.JwarpOptions;
import org.jwarp.engine.provider.JwarpConfig;
import org.jwarp.verbs.Moderation;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * A perftest-style test ({@code jwarp write-bw}, ...): perftest's options and meanings, perftest's
 * server/client model, plus {@code --loopback} and jwarp's own options. The subclasses in
 * {@link PerfCommands} only name their test.
 */
abstract class PerfCommand implements Callable<Integer> {

    /** perftest's default port. */
    static final int DEFAULT_PORT = 18515;

    @Spec
    CommandLine.Model.CommandSpec spec;

    @Parameters(arity = "0..1", paramLabel = "HOST", description = "Server to connect to (client mode). Without it "
            + "(and without --loopback) wait for one client (server mode); the server takes the workload options "
            + "(-s -a -n -D -t -r -I -e -l -Q -q -o) from the client.")
    String host;

    @Option(names = "--loopback", description = "Run both ends here, over 127.0.0.1: two devices in one process, on "
            + "threads jwarp-perf-client and jwarp-perf-server (each with its own engine threads), so one command "
            + "gives one result and each side's CPU is read per thread. Data is verified.")
    boolean loopback;

    @Option(names = {"-s", "--size"}, paramLabel = "BYTES", converter = SizeConverter.class,
            description = "Message size (default 2 for latency, 65536 for bandwidth tests); K, M, G allowed.")
    Integer size;

    @Option(names = {"-a", "--all"}, description = "Every size from 2 to 2^23 bytes.")
    boolean all;

    @Option(names = {"-n", "--iters"}, paramLabel = "N", description = "Round trips (latency, default 1000) or messages"
            + " per QP (bandwidth, default 5000) per size. Without -n a size stops after 256 MiB.")
    Long iterations;

    @Option(names = {"-D", "--duration"}, paramLabel = "SECONDS", description = "Run each size for this long instead"
            + " of -n.")
    Double duration;

    @Option(names = {"-t", "--tx-depth"}, paramLabel = "N", description = "Send queue depth: sends in flight per QP"
            + " (default 1 for latency, 128 for bandwidth).")
    Integer txDepth;

    @Option(names = {"-r", "--rx-depth"}, paramLabel = "N", description = "Receives kept posted per QP (default 16"
            + " for latency, 512 for bandwidth).")
    Integer rxDepth;

    @Option(names = {"-I", "--inline_size"}, paramLabel = "BYTES", description = "Post messages up to this size"
            + " inline (default 64 for latency, 0 for bandwidth; at most 256).")
    Integer inline;

    @Option(names = {"-e", "--events"}, description = "Sleep on completion events (a completion channel) instead of"
            + " busy polling.")
    boolean events;

    @Option(names = "--moderation", paramLabel = "COUNT[,MICROS]", description = "With -e: one completion event per"
            + " COUNT completions, or after MICROS µs (at most " + Moderation.MAX_PERIOD_MICROS + "), whichever comes"
            + " first: interrupt moderation (default 1: an event per completion).")
    String moderation;

    @Option(names = {"-l", "--post_list"}, paramLabel = "N", description = "Post work requests in lists of N.")
    Integer postList;

    @Option(names = {"-Q", "--cq-mod"}, paramLabel = "N", description = "Signal one completion per N sends (default"
            + " 100 for bandwidth, capped at the depth; 1 for latency).")
    Integer cqMod;

    @Option(names = {"-q", "--qp"}, paramLabel = "N", description = "Queue pairs (connections for sockets),"
            + " bandwidth tests (default 1).")
    Integer qps;

    @Option(names = {"-p", "--port"}, paramLabel = "PORT", description = "TCP port (default " + DEFAULT_PORT
            + "; --loopback: any free port).")
    Integer port;

    @Option(names = "--report_gbits", description = "Bandwidth in Gb/s (10^9 bits) instead of MB/s (2^20 bytes).")
    boolean gbits;

    @Option(names = "--cpu_util", description = "Show each side's CPU: application and engine threads, and seed"
            + " 001's %% of one CPU per Gb/s for the sending and the receiving side.")
    boolean cpuUtil;

    @Option(names = {"-o", "--outs"}, paramLabel = "N", description = "RDMA READs (sockets: requests) in flight per"
            + " QP (default 16).")
    Integer outstanding;

    @Option(names = {"-A", "--atomic_type"}, paramLabel = "TYPE", description = "atomic-lat and atomic-bw:"
            + " FETCH_AND_ADD (default) or CMP_AND_SWAP, as perftest's.")
    String atomicType;

    @Option(names = "--transport", paramLabel = "KIND", description = "jwarp (default), sockets-blocking, sockets-nio"
            + " or sockets-busypoll: the same workload over plain TCP (ping-pong, one-way stream, request/response"
            + " for READ).")
    String transport;

    @Option(names = "--pin", paramLabel = "CPUS", description = "Pin threads, e.g. 0,1: in order the client's"
            + " application thread, the server's (--loopback), then the client's engine threads, then the"
            + " server's; the list wraps. Without it nothing is pinned. The footer says where each thread ran.")
    String pin;

    @Option(names = "--perftest", description = "Speak perftest's own protocol (ib_*_bw/lat with -R: rdma_cm and its "
            + "exchange channel) so that the peer is perftest: e.g. ib_write_bw -R here against jwarp write-bw "
            + "--perftest HOST, or the other way round. One size (-s) and one run, no warm-up or data check; -s, -n, "
            + "-t, -r and -q must match the perftest side's, as between two perftest programs.")
    boolean perftest;

    @Option(names = "--json", description = "Print one JSON document (schema jwarp-perf/1) instead of the table.")
    boolean json;

    @Option(names = "--csv", paramLabel = "FILE", description = "Also write the rows to FILE as CSV.")
    Path csv;

    /** For an experiment that samples something else (a cycle soaker) over exactly the measured runs. */
    @Option(names = "--mark", hidden = true, description = "Print '" + JwarpTool.MEASURING + "SIZE' on stderr when a "
            + "size's measured run starts and '" + JwarpTool.MEASURED + "SIZE' when its row is in (client).")
    boolean mark;


    @Mixin
    DeviceOptions device;

    /** perftest's short spelling of {@code --ib-dev}. */
    @Option(names = "-d", paramLabel = "DEVICE", description = "The same as --ib-dev (perftest's -d).")
    void ibDev(String name) {
        device.ibDev = name;
    }

    @Option(names = {"-h", "--help"}, usageHelp = true, description = "Show this help and exit.")
    boolean help;

    abstract TestKind test();

    @Override
    public Integer call() {
        TestKind t = test();
        TransportKind tr = transport();
        Settings s = settings(t, tr);
        String csvProblem = csv == null ? null : OutputPath.whyNotFile(csv);
        if (csvProblem != null) {
            throw bad("--csv " + csv + ": " + csvProblem);
        }
        int cores = Runtime.getRuntime().availableProcessors();
        PerfPlacement placing = new PerfPlacement(spec.commandLine());
        List<Integer> cpus = placing.pinList(pin);
        JwarpConfig.ThreadingMode mode = device.threadingMode(spec);
        int engines = device.engineThreads(spec);
        JwarpConfig.IdleStrategyKind idleKind = device.idleKind(spec);
        boolean engine = device.engine(spec);
        if (!engine && tr != TransportKind.JWARP) {
            throw bad("--provider is for --transport jwarp: --transport " + transport + " uses no RDMA device");
        }
        int here = loopback ? 2 : 1;
        boolean engineThreads = tr == TransportKind.JWARP && engine && mode == JwarpConfig.ThreadingMode.DEDICATED;
        int engineHere = engineThreads ? engines * here : 0;
        int placedEngines = engineThreads ? engines : 0;
        Placement placement = device.toad() ? placing.toad(pin, loopback, host == null && !loopback, placedEngines)
                : Placement.of(cpus, loopback, placedEngines);
        int busy = here + engineHere;
        boolean shared = PerfPlacement.sharesCpu(placement);
        // TOAD on fewer than 4 CPUs: the other side's engine shares this application's CPU
        boolean yield = busy > cores || shared || device.toad() && DeviceOptions.toadSharesCpus() && tr == TransportKind.JWARP;
        int engineSpinners = idleKind == JwarpConfig.IdleStrategyKind.SPIN ? engineHere : 0;
        boolean appPolls = (tr == TransportKind.JWARP && !s.events()) || tr == TransportKind.SOCKETS_BUSYPOLL;
        PrintWriter err = spec.commandLine().getErr();
        if (engineSpinners > 0 && engineSpinners + (appPolls ? here : 0) > cores) {
            err.println("jwarp: warning: --idle spin: " + engineSpinners + " busy-spinning engine thread"
                    + (engineSpinners == 1 ? "" : "s") + (appPolls ? " beside " + here + " polling application thread"
                    + (here == 1 ? "" : "s") : "") + " on " + cores + " CPU" + (cores == 1 ? "" : "s")
                    + ": threads sharing a CPU hand over only at scheduler ticks (~4 ms)");
            err.flush();
        }
        if (host == null && !loopback && !perftest) {
            List<String> ignored = workloadOptionsGiven();
            if (!ignored.isEmpty()) {
                err.println("jwarp: note: a server takes the workload options from its client; ignoring "
                        + String.join(" ", ignored));
                err.flush();
            }
        }
        boolean oversubscribe = engines > cores && engineSpinners > 0;
        JwarpOptions options = new JwarpOptions(device.toConfig(spec, oversubscribe ? engines : 0), List.of(),
                oversubscribe, yield, moderation());
        List<String> setup = new ArrayList<>();
        if (tr == TransportKind.JWARP) {
            setup.add("Engine          : " + options.describe());
            if (engine && !device.threadingGiven()) {
                setup.add("                  default for " + JwarpConfig.defaultThreadingReason(cores));
            }
            if (device.toad()) {
                setup.add("                  toad (seed 001): application thread" + (loopback ? "s" : "") + " on CPU "
                        + (loopback ? placement.clientApp() + "," + placement.serverApp() : placement.clientApp())
                        + ", engine thread" + (loopback ? "s" : "") + " on CPU " + (loopback ? placement.clientEngine()
                        + "," + placement.serverEngine() : placement.clientEngine()));
            }
        }
        if (appPolls) {
            setup.add("Polling         : busy polling" + (yield ? ", yielding the CPU when idle (" + busy
                    + " busy threads on " + cores + " CPU" + (cores == 1 ? "" : "s") + (shared ? ", pinned together"
                    : "") + ")" : ""));
        } else if (tr == TransportKind.JWARP) {
            Moderation m = options.moderation();
            setup.add("Polling         : events (-e): sleep on a completion channel" + (m.equals(Moderation.NONE) ? ""
                    : ", one event per " + m.count() + " completions" + (m.periodMicros() > 0 ? " or "
                    + m.periodMicros() + " µs" : "")));
        }
        if (perftest) {
            return new PerftestMode(spec.commandLine().getOut()).run(s, options, host,
                    loopback, port(), port != null);
        }
        return run(s, options, placement, setup);
    }

    private int run(Settings s, JwarpOptions options, Placement placement, List<String> setup) {
        PrintWriter out = spec.commandLine().getOut();
        PrintWriter err = spec.commandLine().getErr();
        TextReport text = new TextReport(out, gbits, cpuUtil);
        List<String> allSetup = new ArrayList<>();
        String modeName = loopback ? "loopback" : host != null ? "client" : "server";
        // a JSON document is read by a program (or an experiment running this test, which shows its own bar)
        try (Progress progress = json ? Progress.none() : Progress.forTerminal()) {
            PerfRunner.Listener listener = new PerfRunner.Listener() {
                @Override
                public void connected(Settings settings, List<String> description) {
                    allSetup.addAll(description);
                    allSetup.addAll(setup);
                    if (!json) {
                        text.header(settings, allSetup);
                    }
                }

                @Override
                public void sizeStarted(int index, int count, int size, long durationNanos) {
                    progress.size(index, count, size, durationNanos);
                    if (mark) {
                        err.println(JwarpTool.MEASURING + size);
                        err.flush();
                    }
                }

                @Override
                public void row(ResultRow row) {
                    progress.clear();
                    if (mark) {
                        err.println(JwarpTool.MEASURED + row.size());
                        err.flush();
                    }
                    if (!json) {
                        text.row(row);
                    }
                }
            };
            PerfRunner.Outcome o;
            if (loopback) {
                o = PerfRunner.loopback(s, options, port == null ? 0 : port, placement, listener);
            } else if (host != null) {
                o = PerfRunner.client(s, options, address(host, port()), placement, listener);
            } else {
                InetSocketAddress bind = new InetSocketAddress(port());
                o = PerfRunner.server(s.test(), s.transport(), options, bind, placement, listener, a -> {
                    err.println(Listening.waiting(s.test().command() + " server (--transport "
                            + s.transport().option() + ")", a.getPort()));
                    err.flush();
                });
            }
            progress.clear();
            if (json) {
                out.println(JsonCodec.write(Results.document(o.settings(), modeName, allSetup, o.threads(), o.rows())));
                out.flush();
            } else {
                text.footer(o.rows(), o.threads());
            }
            if (csv != null) {
                writeCsv(o);
            }
            boolean ok = !o.rows().isEmpty() && o.rows().stream().allMatch(ResultRow::verified);
            return ok ? 0 : 1;
        }
    }

    private void writeCsv(PerfRunner.Outcome o) {
        List<String> lines = new ArrayList<>();
        lines.add(Results.csvHeader());
        for (ResultRow r : o.rows()) {
            lines.add(Results.csvRow(o.settings(), r));
        }
        try {
            Files.write(csv, lines);
        } catch (IOException e) {
            throw new PerfException("cannot write " + csv + ": " + OutputPath.reason(e));
        }
    }

    private static InetSocketAddress address(String host, int port) {
        InetSocketAddress a = new InetSocketAddress(host, port);
        if (a.isUnresolved()) {
            throw new PerfException("unknown host '" + host + "'");
        }
        return a;
    }

    private int port() {
        return port == null ? DEFAULT_PORT : port;
    }

    // ---- validation: each failure is one line naming the option and the fix ----------------------

    private CommandLine.ParameterException bad(String message) {
        return new CommandLine.ParameterException(spec.commandLine(), message);
    }

    private TransportKind transport() {
        if (transport == null) {
            return TransportKind.JWARP;
        }
        TransportKind t = TransportKind.ofOption(transport);
        if (t == null) {
            throw bad("unknown --transport '" + transport + "': use jwarp, sockets-blocking, sockets-nio or"
                    + " sockets-busypoll");
        }
        return t;
    }

    private Settings settings(TestKind t, TransportKind tr) {
        boolean lat = t.isLatency();
        if (host != null && loopback) {
            throw bad("give a HOST (client mode) or --loopback, not both");
        }
        if (size != null && all) {
            throw bad("-s and -a exclude each other: give one size or all sizes");
        }
        if (iterations != null && duration != null) {
            throw bad("-n and -D exclude each other: give a count or a duration");
        }
        if (iterations != null && iterations < 1) {
            throw bad("-n must be at least 1");
        }
        if (duration != null && !(duration > 0 && duration <= 3600)) {
            throw bad("-D must be more than 0 and at most 3600 seconds");
        }
        int tx = range("-t", txDepth, lat ? 1 : 128, 1, Settings.MAX_DEPTH);
        int rx = range("-r", rxDepth, lat ? 16 : 512, 1, Settings.MAX_DEPTH);
        int in = range("-I", inline, lat ? 64 : 0, 0, Settings.MAX_INLINE);
        int list = range("-l", postList, 1, 1, Settings.MAX_DEPTH);
        int q = range("-q", qps, 1, 1, Settings.MAX_QPS);
        int outs = range("-o", outstanding, 16, 1, Settings.MAX_OUTSTANDING);
        if (port != null && (port < 0 || port > 65535)) {
            throw bad("-p must be a TCP port, 0..65535");
        }
        int limit = t.verb().isRequestResponse() ? Math.min(tx, outs) : tx;
        int mod = range("-Q", cqMod, lat ? 1 : Math.min(100, limit), 1, Settings.MAX_DEPTH);
        if (tr == TransportKind.JWARP && mod > limit) {
            throw bad("-Q " + mod + " is more than the " + (limit == tx ? "send queue depth -t " : "READs in flight -o ")
                    + limit + ": no completion would ever be signaled; lower -Q or raise -t");
        }
        if (tr == TransportKind.JWARP && list > tx) {
            throw bad("-l " + list + " is more than the send queue depth -t " + tx + "; lower -l or raise -t");
        }
        if (lat && q > 1) {
            throw bad("latency tests run one QP; -q is for bandwidth tests");
        }
        if (events && tr.isSockets()) {
            throw bad("-e is for --transport jwarp: the sockets transports wait as their name says (sockets-blocking"
                    + " sleeps in read, sockets-nio in select)");
        }
        if (events && t == TestKind.WRITE_LAT) {
            throw bad("-e does not apply to write-lat: an RDMA WRITE raises no completion at its target, so both"
                    + " sides poll memory (as perftest's does); use send-lat or write-imm-lat");
        }
        if (perftest) {
            checkPerftest(t, tr);
        }
        boolean atomic = t.verb() == TestKind.Verb.ATOMIC;
        boolean cas = false;
        if (atomicType != null) {
            if (!atomic) {
                throw bad("-A is for atomic-lat and atomic-bw");
            }
            cas = switch (atomicType.toUpperCase(java.util.Locale.ROOT)) {
                case "FETCH_AND_ADD" -> false;
                case "CMP_AND_SWAP" -> true;
                default -> throw bad("-A takes FETCH_AND_ADD or CMP_AND_SWAP, not '" + atomicType + "'");
            };
        }
        if (atomic && (all || size != null && size != TestKind.ATOMIC_SIZE)) {
            throw bad("the atomic tests use " + TestKind.ATOMIC_SIZE + "-byte operands: drop " + (all ? "-a" : "-s"));
        }
        int sz = atomic ? TestKind.ATOMIC_SIZE : size != null ? size : lat ? 2 : 65536;
        long n = iterations != null ? iterations : lat ? 1000 : 5000;
        long ms = duration == null ? 0 : Math.max(1, Math.round(duration * 1000));
        return new Settings(t, tr, all, sz, n, iterations != null, ms, tx, rx, in, events, list, mod, q, outs, cas)
                .check();
    }

    /** What --perftest leaves out, each with its one line. */
    private void checkPerftest(TestKind t, TransportKind tr) {
        if (!org.jwarp.bench.transport.jwarp.PerftestPeer.speaks(t)) {
            throw bad("--perftest speaks send-, write- and read-lat/bw (the tests perftest runs over iWARP), not "
                    + t.command());
        }
        if (tr != TransportKind.JWARP) {
            throw bad("--perftest is for --transport jwarp: perftest's peer is an RDMA device");
        }
        for (String o : List.of("-a", "-D", "-e", "-l", "--json", "--csv", "--pin", "--moderation")) {
            if (spec.commandLine().getParseResult().hasMatchedOption(o)) {
                throw bad("--perftest runs one size for -n iterations the way perftest does; drop " + o);
            }
        }
    }

    private int range(String name, Integer value, int dflt, int min, int max) {
        if (value == null) {
            return dflt;
        }
        if (value < min || value > max) {
            throw bad(name + " must be in " + min + ".." + max + ", not " + value);
        }
        return value;
    }

    /** The workload options given on the command line (a server takes the client's instead). */
    private List<String> workloadOptionsGiven() {
        List<String> given = new ArrayList<>();
        for (String name : List.of("-s", "-a", "-n", "-D", "-t", "-r", "-I", "-e", "-l", "-Q", "-q", "-o", "-A")) {
            if (spec.commandLine().getParseResult().hasMatchedOption(name)) {
                given.add(name);
            }
        }
        return given;
    }

    /** --moderation COUNT[,MICROS], checked; only with -e. */
    private Moderation moderation() {
        if (moderation == null) {
            return Moderation.NONE;
        }
        if (!events) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--moderation moderates completion events: it needs -e");
        }
        String[] parts = moderation.split(",", -1);
        try {
            int count = Integer.parseInt(parts[0].strip());
            long micros = parts.length > 1 ? Long.parseLong(parts[1].strip()) : 0;
            if (parts.length > 2) {
                throw new NumberFormatException();
            }
            return Moderation.of(count, micros);
        } catch (NumberFormatException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--moderation takes COUNT or COUNT,MICROS (e.g. 16,50), not '"
                    + moderation + "'");
        } catch (IllegalArgumentException e) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--moderation: " + e.getMessage());
        }
    }
}
