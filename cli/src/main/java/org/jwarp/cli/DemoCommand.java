package org.jwarp.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.jwarp.bench.json.JsonCodec;
import org.jwarp.bench.perf.ResultRow;
import org.jwarp.bench.perf.TestKind;
import org.jwarp.bench.perf.TransportKind;
import org.jwarp.bench.report.Progress;
import org.jwarp.bench.run.LoopbackRun;
import org.jwarp.bench.run.Placement;
import org.jwarp.bench.transport.jwarp.JwarpOptions;
import org.jwarp.engine.affinity.Cpus;
import org.jwarp.engine.affinity.ThreadAffinity;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code jwarp demo}: the README's main job. On loopback, WRITE, READ and SEND latency and
 * bandwidth at two sizes each, over jwarp and over TCP sockets, in one table with a ratio column.
 * Both sides are set up alike: one busy-polling thread per side (jwarp with this machine's device
 * defaults, under which the polling thread runs the engine below 4 CPUs; sockets busy-polled),
 * the client's on one CPU and the server's on another when there are two. The device options are
 * every command's ({@link DeviceOptions}).
 */
@Command(name = "demo", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Compare jwarp with TCP sockets on loopback: WRITE, READ and SEND latency and bandwidth at a "
                + "few sizes, one table with a jwarp/sockets ratio (about a minute and a half).",
                "Each side runs one busy-polling thread: jwarp with the device options below (by default, below 4 "
                        + "CPUs, that thread runs the engine), sockets busy-polled (sockets-busypoll); client on one "
                        + "CPU, server on another. Every run verifies its data. The full tests are the subcommands "
                        + "(jwarp write-bw --help)."})
final class DemoCommand implements Callable<Integer> {

    /** Latency rounds per size; bandwidth milliseconds per size. */
    static final long LAT_ROUNDS = LoopbackRun.LAT_ROUNDS;
    static final long BW_MILLIS = 700;
    /**
     * Work requests per post call in the bandwidth lines: a stream of small messages is posted in
     * lists, one doorbell per list, as RDMA applications stream them (perftest's {@code -l}); a
     * sockets program writes each message.
     */
    static final int BW_POST_LIST = 16;
    static final int MAX_PAIRS = 99;

    @Spec
    CommandSpec spec;

    @Mixin
    DeviceOptions device;

    @Option(names = "--pairs", paramLabel = "N", description = "Run every line N times, jwarp and sockets "
            + "alternating (which goes first alternates too), and show the median with its quartiles, and the median "
            + "of the N ratios (default 1).")
    int pairs = 1;

    @Option(names = "--json", description = "Print one JSON document (schema " + JSON_SCHEMA + ") instead of the table.")
    boolean json;

    static final String JSON_SCHEMA = "jwarp-demo/1";

    /** Measurement runs so far (a baseline shown twice counts once). */
    private int runs;

    /** One line of the table: a test at a size, and which sockets run it is compared with. */
    record Case(String label, TestKind test, int size, TestKind socketsTest) {
    }

    static List<Case> cases() {
        List<Case> out = new ArrayList<>();
        for (int size : new int[] {8, 4096}) {
            out.add(new Case("WRITE latency", TestKind.WRITE_LAT, size, TestKind.WRITE_LAT));
        }
        for (int size : new int[] {8, 4096}) {
            out.add(new Case("READ latency", TestKind.READ_LAT, size, TestKind.READ_LAT));
        }
        for (int size : new int[] {8, 4096}) {
            // a sockets ping-pong is the same workload for SEND and WRITE: measured once, shown twice
            out.add(new Case("SEND latency", TestKind.SEND_LAT, size, TestKind.WRITE_LAT));
        }
        for (int size : new int[] {4096, 65536}) {
            out.add(new Case("WRITE bandwidth", TestKind.WRITE_BW, size, TestKind.WRITE_BW));
        }
        for (int size : new int[] {4096, 65536}) {
            out.add(new Case("READ bandwidth", TestKind.READ_BW, size, TestKind.READ_BW));
        }
        for (int size : new int[] {4096, 65536}) {
            out.add(new Case("SEND bandwidth", TestKind.SEND_BW, size, TestKind.WRITE_BW));
        }
        return out;
    }

    @Override
    public Integer call() {
        if (pairs < 1 || pairs > MAX_PAIRS) {
            throw new CommandLine.ParameterException(spec.commandLine(), "--pairs must be 1 to " + MAX_PAIRS
                    + ", not " + pairs);
        }
        if (!device.engine(spec)) {
            throw new CommandLine.ParameterException(spec.commandLine(), "demo measures jwarp's engine against sockets,"
                    + " both ends in this process on 127.0.0.1: drop --provider (the perf tests take --provider "
                    + device.provider + " against a peer)");
        }
        PrintWriter out = json ? new PrintWriter(java.io.Writer.nullWriter()) : spec.commandLine().getOut();
        List<DemoDocument.Row> rows = new ArrayList<>();
        long t0 = System.nanoTime();
        int cores = Runtime.getRuntime().availableProcessors();
        List<Integer> cpus = twoCpus();
        Placement placement = cpus.size() == 2 ? Placement.of(cpus, true, 0) : Placement.NONE;
        boolean yield = cores < 2;
        JwarpOptions jwarp = new JwarpOptions(device.toConfig(spec), List.of(), false, yield);
        out.println("jwarp demo: jwarp verbs against TCP sockets on loopback (127.0.0.1), both ends in this process");
        out.println("  jwarp  : " + jwarp.describe() + ", MPA CRC " + jwarp.device().crcPolicy().name().toLowerCase(Locale.ROOT));
        out.println("           bandwidth: 128 requests in flight, posted in lists of " + BW_POST_LIST + " (one doorbell each)");
        out.println("  sockets: sockets-busypoll (non-blocking, busy-polled), TCP_NODELAY; the same workload:");
        out.println("           ping-pong for WRITE/SEND latency, request/response for READ, one-way stream for");
        out.println("           WRITE/SEND bandwidth, one write per message");
        out.println("  threads: " + (placement.isEmpty() ? "not pinned (fewer than 2 CPUs)"
                : "client on CPU " + placement.clientApp() + ", server on CPU " + placement.serverApp() + " (pinned)"));
        out.println();
        if (pairs == 1) {
            out.printf(Locale.ROOT, " %-16s %8s %14s %14s %14s%n", "test", "size", "jwarp", "sockets", "jwarp/sockets");
        } else {
            out.printf(Locale.ROOT, " %-16s %8s %24s %24s %20s%n", "test", "size", "jwarp", "sockets", "jwarp/sockets");
            out.printf(Locale.ROOT, " %-16s %8s %24s %24s %20s%n", "", "", "median [quartiles]", "median [quartiles]",
                    "median of " + pairs + " pairs");
        }
        out.flush();
        List<Case> cases = cases();
        List<ResultRow> socketsDone = new ArrayList<>();
        List<Case> socketsKeys = new ArrayList<>();
        boolean verified = true;
        try (Progress progress = Progress.forTerminal()) {
            // a first, unreported round trip run, so that the first row is not the one that pays for
            // the JIT compiling the shared code (each run also warms its own workload first)
            LoopbackRun.run(TestKind.WRITE_LAT, TransportKind.JWARP, 8, LAT_ROUNDS, BW_MILLIS, jwarp, placement);
            for (int i = 0; i < cases.size(); i++) {
                Case c = cases.get(i);
                progress.size(i, cases.size(), c.size(), 0);
                double[] j = new double[pairs];
                double[] s = new double[pairs];
                double[] ratio = new double[pairs];
                for (int p = 0; p < pairs; p++) {
                    // the order alternates, so that a trend in the machine's load favours neither
                    ResultRow sr = p % 2 == 1 ? sockets(c, socketsKeys, socketsDone, jwarp, placement) : null;
                    ResultRow jr = LoopbackRun.run(c.test(), TransportKind.JWARP, c.size(), LAT_ROUNDS, BW_MILLIS,
                            BW_POST_LIST, jwarp, placement);
                    if (sr == null) {
                        sr = sockets(c, socketsKeys, socketsDone, jwarp, placement);
                    }
                    runs++;
                    verified &= jr.verified() && sr.verified();
                    j[p] = LoopbackRun.figure(jr);
                    s[p] = LoopbackRun.figure(sr);
                    ratio[p] = j[p] / s[p];
                }
                progress.clear();
                out.println(line(c, j, s, ratio));
                out.flush();
                rows.add(jsonRow(c, j, s, ratio));
            }
        }
        out.println();
        out.println(" latency: typical (median) one-way time in µs (READ: the round trip), lower is better;");
        out.println(" bandwidth: MB/s (2^20 bytes/s), higher is better. Ratio = jwarp / sockets.");
        out.printf(Locale.ROOT, " data verified: %s (%d runs); %.1f s. %s; the subcommands take the full options.%n",
                verified ? "yes" : "NO", runs, (System.nanoTime() - t0) / 1e9,
                pairs == 1 ? "For spread, --pairs 5" : "Quartiles over the " + pairs + " pairs");
        out.flush();
        if (json) {
            DemoDocument doc = new DemoDocument(JSON_SCHEMA, jwarp.describe(), TransportKind.SOCKETS_BUSYPOLL.option(),
                    placement.isEmpty() ? "not pinned" : "client on CPU " + placement.clientApp() + ", server on CPU "
                            + placement.serverApp(), pairs, verified, (System.nanoTime() - t0) / 1e9, rows);
            PrintWriter real = spec.commandLine().getOut();
            real.println(JsonCodec.write(doc));
            real.flush();
        }
        return verified ? 0 : 1;
    }

    /** One line of the table as JSON: the figures of every pair, their median and quartiles. */
    private static DemoDocument.Row jsonRow(Case c, double[] j, double[] s, double[] ratio) {
        return new DemoDocument.Row(c.label(), c.size(), c.test().isLatency() ? "us one-way (READ: round trip), typical"
                : "MB/s", FigureRuns.of(j), FigureRuns.of(s), FigureRuns.of(ratio));
    }

    /**
     * The sockets run a case is compared with: with one pair, a baseline already measured for the
     * same workload is shown again (the sockets ping-pong serves WRITE and SEND latency); with
     * several, each pair measures its own, next to its jwarp run.
     */
    private ResultRow sockets(Case c, List<Case> keys, List<ResultRow> done, JwarpOptions jwarp, Placement placement) {
        if (pairs == 1) {
            for (int k = 0; k < keys.size(); k++) {
                if (keys.get(k).socketsTest() == c.socketsTest() && keys.get(k).size() == c.size()) {
                    return done.get(k);
                }
            }
        }
        runs++;
        ResultRow r = LoopbackRun.run(c.socketsTest(), TransportKind.SOCKETS_BUSYPOLL, c.size(), LAT_ROUNDS, BW_MILLIS,
                jwarp, placement);
        keys.add(c);
        done.add(r);
        return r;
    }

    private static String line(Case c, double[] j, double[] s, double[] ratio) {
        String size = c.size() >= 1024 ? c.size() / 1024 + " KiB" : c.size() + " B";
        String unit = c.test().isLatency() ? "µs" : "MB/s";
        if (j.length == 1) {
            String fmt = c.test().isLatency() ? " %-16s %8s %11.2f µs %11.2f µs %14.2f" : " %-16s %8s %9.0f MB/s %9.0f MB/s %14.2f";
            return String.format(Locale.ROOT, fmt, c.label(), size, j[0], s[0], ratio[0]);
        }
        int decimals = c.test().isLatency() ? 2 : 0;
        return String.format(Locale.ROOT, " %-16s %8s %24s %24s %20s", c.label(), size,
                LoopbackRun.Spread.of(j).format(decimals) + " " + unit,
                LoopbackRun.Spread.of(s).format(decimals) + " " + unit, LoopbackRun.Spread.of(ratio));
    }

    /** The first two CPUs this process may use, or fewer. */
    private static List<Integer> twoCpus() {
        Optional<Cpus> allowed = ThreadAffinity.isSupported() ? ThreadAffinity.getAffinity() : Optional.empty();
        List<Integer> out = new ArrayList<>();
        if (allowed.isPresent()) {
            for (int c : allowed.get().toArray()) {
                if (out.size() < 2) {
                    out.add(c);
                }
            }
        }
        return out;
    }
}
