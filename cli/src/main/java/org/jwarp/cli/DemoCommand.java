package org.jwarp.cli;

import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.concurrent.Callable;
import org.jwarp.bench.perf.ResultRow;
import org.jwarp.bench.perf.Settings;
import org.jwarp.bench.perf.TestKind;
import org.jwarp.bench.perf.TransportKind;
import org.jwarp.bench.report.Progress;
import org.jwarp.bench.run.PerfRunner;
import org.jwarp.bench.run.Placement;
import org.jwarp.bench.transport.jwarp.JwarpOptions;
import org.jwarp.engine.affinity.Cpus;
import org.jwarp.engine.affinity.ThreadAffinity;
import org.jwarp.verbs.DeviceConfig;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;

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
                + "few sizes, one table with a jwarp/sockets ratio (about 30 s).",
                "Each side runs one busy-polling thread: jwarp with the device options below (by default, below 4 "
                        + "CPUs, that thread runs the engine), sockets busy-polled (sockets-busypoll); client on one "
                        + "CPU, server on another. Every run verifies its data. The full tests are the subcommands "
                        + "(jwarp write-bw --help)."})
final class DemoCommand implements Callable<Integer> {

    /** Latency rounds per size; bandwidth milliseconds per size. */
    static final long LAT_ROUNDS = 20_000;
    static final long BW_MILLIS = 700;

    @Spec
    CommandSpec spec;

    @Mixin
    DeviceOptions device;

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
        PrintWriter out = spec.commandLine().getOut();
        long t0 = System.nanoTime();
        int cores = Runtime.getRuntime().availableProcessors();
        List<Integer> cpus = twoCpus();
        Placement placement = cpus.size() == 2 ? Placement.of(cpus, true, 0) : Placement.NONE;
        boolean yield = cores < 2;
        JwarpOptions jwarp = new JwarpOptions(device.toConfig(spec), List.of(), false, yield);
        out.println("jwarp demo: jwarp verbs against TCP sockets on loopback (127.0.0.1), both ends in this process");
        out.println("  jwarp  : " + jwarp.describe() + ", MPA CRC " + jwarp.device().crcPolicy().name().toLowerCase(Locale.ROOT));
        out.println("  sockets: sockets-busypoll (non-blocking, busy-polled), TCP_NODELAY; the same workload:");
        out.println("           ping-pong for WRITE/SEND latency, request/response for READ, one-way stream for");
        out.println("           WRITE/SEND bandwidth");
        out.println("  threads: " + (placement.isEmpty() ? "not pinned (fewer than 2 CPUs)"
                : "client on CPU " + placement.clientApp() + ", server on CPU " + placement.serverApp() + " (pinned)"));
        out.println();
        out.printf(Locale.ROOT, " %-16s %8s %14s %14s %14s%n", "test", "size", "jwarp", "sockets", "jwarp/sockets");
        out.flush();
        List<Case> cases = cases();
        List<ResultRow> socketsDone = new ArrayList<>();
        List<Case> socketsKeys = new ArrayList<>();
        boolean verified = true;
        int runs = 0;
        try (Progress progress = Progress.forTerminal()) {
            // a first, unreported round trip run, so that the first row is not the one that pays for
            // the JIT compiling the shared code (each run also warms its own workload first)
            run(TestKind.WRITE_LAT, TransportKind.JWARP, 8, jwarp, placement);
            for (int i = 0; i < cases.size(); i++) {
                Case c = cases.get(i);
                progress.size(i, cases.size(), c.size(), 0);
                ResultRow j = run(c.test(), TransportKind.JWARP, c.size(), jwarp, placement);
                runs++;
                ResultRow s = null;
                for (int k = 0; k < socketsKeys.size(); k++) {
                    if (socketsKeys.get(k).socketsTest() == c.socketsTest() && socketsKeys.get(k).size() == c.size()) {
                        s = socketsDone.get(k);
                    }
                }
                if (s == null) {
                    s = run(c.socketsTest(), TransportKind.SOCKETS_BUSYPOLL, c.size(), jwarp, placement);
                    runs++;
                    socketsKeys.add(c);
                    socketsDone.add(s);
                }
                verified &= j.verified() && s.verified();
                progress.clear();
                out.println(line(c, j, s));
                out.flush();
            }
        }
        out.println();
        out.println(" latency: typical (median) one-way time in µs (READ: the round trip), lower is better;");
        out.println(" bandwidth: MB/s (2^20 bytes/s), higher is better. Ratio = jwarp / sockets.");
        out.printf(Locale.ROOT, " data verified: %s (%d runs); %.1f s. Repeat for spread; the subcommands take the"
                + " full options.%n", verified ? "yes" : "NO", runs, (System.nanoTime() - t0) / 1e9);
        out.flush();
        return verified ? 0 : 1;
    }

    private static String line(Case c, ResultRow j, ResultRow s) {
        String size = c.size() >= 1024 ? c.size() / 1024 + " KiB" : c.size() + " B";
        if (c.test().isLatency()) {
            double a = j.latency().typical();
            double b = s.latency().typical();
            return String.format(Locale.ROOT, " %-16s %8s %11.2f µs %11.2f µs %14.2f", c.label(), size, a, b, a / b);
        }
        double a = j.bwAverage() / (1 << 20);
        double b = s.bwAverage() / (1 << 20);
        return String.format(Locale.ROOT, " %-16s %8s %9.0f MB/s %9.0f MB/s %14.2f", c.label(), size, a, b, a / b);
    }

    private static ResultRow run(TestKind t, TransportKind tr, int size, JwarpOptions jwarp, Placement placement) {
        boolean lat = t.isLatency();
        int tx = lat ? 1 : 128;
        int outs = 16;
        int mod = lat ? 1 : Math.min(100, t.verb() == TestKind.Verb.READ ? Math.min(tx, outs) : tx);
        Settings s = new Settings(t, tr, false, size, lat ? LAT_ROUNDS : 5000, lat, lat ? 0 : BW_MILLIS, tx,
                lat ? 16 : 512, lat ? 64 : 0, false, 1, mod, 1, outs).check();
        PerfRunner.Outcome o = PerfRunner.loopback(s, jwarp, 0, placement, new PerfRunner.Listener() {
            @Override
            public void connected(Settings settings, List<String> description) {
            }

            @Override
            public void row(ResultRow row) {
            }
        });
        return o.rows().getFirst();
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
