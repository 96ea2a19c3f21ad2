package org.jwarp.bench.experiments;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.function.Consumer;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.function.ToDoubleFunction;
import org.jwarp.bench.report.PerfDocument;
import org.jwarp.bench.run.JvmProcess;
import org.jwarp.bench.run.RunQueueWait;
import org.jwarp.degen.LinkParams;
import org.jwarp.degen.RouterTuning;
import org.jwarp.degen.testbed.Emulator;
import org.jwarp.degen.testbed.Testbed;
import org.jwarp.degen.testbed.Topology;

/**
 * What the two-process experiments share: where the two sides run ({@link Hosts}), a server side
 * and a client side each a JVM of its own ({@link JvmProcess}), the perf tests run that way, and
 * the run of a loopback part then a delay sweep over degen's testbed.
 */
public final class ExperimentProcesses {

    private ExperimentProcesses() {
    }

    /** Where the two hosts are: command prefixes for server and client, and the server's address. */
    public record Hosts(List<String> serverPrefix, List<String> clientPrefix, String serverAddress) {
        public static Hosts loopback() {
            return new Hosts(List.of(), List.of(), "127.0.0.1");
        }
    }

    /**
     * The perf document ({@code jwarp-perf/1}) a client printed with {@code --json}, read through
     * Jackson from among the other lines its process printed.
     *
     * @throws IOException one line, if the output holds no such document
     */
    static PerfDocument document(String output, String what) throws IOException {
        try {
            return PerfDocument.parse(output, "the " + what + " client's output");
        } catch (IllegalArgumentException e) {
            throw new IOException(e.getMessage() + ": " + output.strip());
        }
    }

    /** The latency figures of a latency test's first size. */
    static PerfDocument.LatencyUs latency(PerfDocument doc) throws IOException {
        PerfDocument.LatencyUs l = doc.first().latencyUs();
        if (l == null) {
            throw new IOException("the " + doc.test() + " document has no latency_us: it is not a latency test's");
        }
        return l;
    }

    /**
     * One run of a perf test ({@code jwarp TEST}) between a server on {@code hosts}' server side and
     * a client on its client side, each a process of its own as a user runs them; both get
     * {@code bothArgs} (device options), the client also {@code clientArgs} (the workload) and
     * {@code --json}. Returns the client's document, which says the run was verified.
     */
    public static PerfDocument perf(JwarpTool jwarp, Hosts hosts, String test, String transport, List<String> bothArgs,
                                    List<String> clientArgs, Consumer<String> onLine)
            throws IOException, InterruptedException {
        return measured(jwarp, hosts, test, transport, bothArgs, clientArgs, onLine).doc();
    }

    /**
     * A perf test's document, and how long each side's busiest thread (its poller) waited runnable
     * for a CPU during the measured pass ({@link RunQueueWait}), ms: NaN where {@code /proc} does
     * not say.
     */
    public record Measured(PerfDocument doc, double serverWaitMs, double clientWaitMs) {
    }

    /** As {@link #perf}, the client marking its measured pass ({@code --mark}) so that the sides' CPU wait is known. */
    static Measured measured(JwarpTool jwarp, Hosts hosts, String test, String transport, List<String> bothArgs,
                             List<String> clientArgs, Consumer<String> onLine) throws IOException, InterruptedException {
        List<String> serverArgs = new ArrayList<>(List.of(test, "--transport", transport, "-p", "0"));
        serverArgs.addAll(bothArgs);
        try (JvmProcess server = JvmProcess.start(hosts.serverPrefix(), jwarp.mainClass(), serverArgs, test
                + " server")) {
            List<String> args = new ArrayList<>(List.of(test, hosts.serverAddress(), "-p", Integer.toString(server.port()),
                    "--transport", transport, "--json"));
            args.addAll(bothArgs);
            args.addAll(clientArgs);
            if (!args.contains("--mark")) {
                args.add("--mark");
            }
            CompletableFuture<JvmProcess> client = new CompletableFuture<>();
            RunQueueWait[] window = new RunQueueWait[4];
            Consumer<String> marks = line -> {
                if (line.startsWith(JwarpTool.MEASURING) && window[0] == null) {
                    window[0] = RunQueueWait.of(server.pid());
                    window[1] = RunQueueWait.of(client.join().pid());
                } else if (line.startsWith(JwarpTool.MEASURED) && window[2] == null) {
                    window[2] = RunQueueWait.of(server.pid());
                    window[3] = RunQueueWait.of(client.join().pid());
                }
                onLine.accept(line);
            };
            String out;
            try (JvmProcess c = JvmProcess.start(hosts.clientPrefix(), jwarp.mainClass(), args, test + " ("
                    + transport + " " + String.join(" ", clientArgs) + ") client", marks)) {
                client.complete(c);
                out = c.awaitOutput(120);
            }
            PerfDocument doc = document(out, test);
            if (!doc.verified()) {
                throw new IOException("the " + test + " run was not verified: " + out.strip());
            }
            boolean marked = window[0] != null && window[2] != null;
            return new Measured(doc, marked ? window[2].busiestThreadWaitMs(window[0]) : Double.NaN,
                    marked ? window[3].busiestThreadWaitMs(window[1]) : Double.NaN);
        }
    }

    /** {@code results/NAME-TIMESTAMP}. */
    public static Path defaultDir(String name) {
        return Path.of("results", name + "-" + LocalDateTime.now()
                .format(DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss", Locale.ROOT)));
    }

    /** The median of {@code values} (NaN if none). */
    static double median(List<Double> values) {
        List<Double> v = values.stream().sorted().toList();
        int n = v.size();
        return n == 0 ? Double.NaN : n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
    }

    /** The median of {@code value} over the points {@code which} selects (NaN if none). */
    static <P> double median(List<P> points, Predicate<P> which,
                             ToDoubleFunction<P> value) {
        return median(points.stream().filter(which).map(p -> value.applyAsDouble(p)).toList());
    }

    /** One point of a sweep: at {@code x}, over {@code stack}, in run {@code repeat}. */
    @FunctionalInterface
    interface PointRun<X, P> {
        P run(X x, String stack, int repeat) throws IOException, InterruptedException;
    }

    /**
     * A part's points in the order every experiment takes them: for each repeat, each of {@code xs},
     * each of {@code stacks}; each point is handed to {@code progress} as it comes.
     */
    static <X, P> List<P> points(int repeats, List<X> xs, List<String> stacks, PointRun<X, P> point,
                                 Consumer<P> progress) throws IOException, InterruptedException {
        List<P> out = new ArrayList<>();
        for (int r = 0; r < repeats; r++) {
            for (X x : xs) {
                for (String s : stacks) {
                    P p = point.run(x, s, r);
                    out.add(p);
                    progress.accept(p);
                }
            }
        }
        return out;
    }

    /** The points of one part of an experiment, on {@code hosts}, each handed to {@code progress} as it comes. */
    @FunctionalInterface
    interface Part<P> {
        List<P> run(Hosts hosts, double delayMs, Consumer<P> progress)
                throws IOException, InterruptedException;
    }

    /**
     * A two-host experiment's points: {@code loopback} on loopback at no added delay, and
     * {@code delay} at each of {@code delaysMs} between the hosts of testbed {@code testbed}
     * ({@link #overDelays}); {@code how} says how the delay part runs, {@code line} what a point's
     * line says.
     */
    record Sweep<P>(Part<P> loopback, Part<P> delay, String testbed, List<Double> delaysMs, String how,
                    Function<P, String> line) {
    }

    /**
     * Runs {@code sweep}: the delay part too if the run's {@code --where} says so
     * ({@link ExperimentRun#delaySweep}, noted in {@code notes}), after the output directory is
     * made and {@code header} (given whether the delay part runs) is printed. Each point's line goes
     * out as it comes, with the progress bar ({@link ExperimentProgress}) counting to
     * {@code total} (given the same).
     */
    static <P> List<P> sweep(ExperimentRun run, List<String> notes, Sweep<P> sweep, Function<Boolean, Integer> total,
                             Function<Boolean, String> header) throws IOException, InterruptedException {
        boolean delays = run.delaySweep(notes);
        run.dir();
        PrintWriter pw = run.out();
        pw.println(header.apply(delays));
        pw.flush();
        try (ExperimentProgress bar = new ExperimentProgress(pw, total.apply(delays))) {
            Consumer<P> progress = p -> bar.point(sweep.line().apply(p));
            List<P> points = new ArrayList<>(sweep.loopback().run(Hosts.loopback(), 0, progress));
            if (delays) {
                overDelays(sweep.testbed(), sweep.delaysMs(), notes, pw,
                        (hosts, d) -> points.addAll(sweep.delay().run(hosts, d, progress)));
                notes.add("delay sweep: " + sweep.how() + " of testbed " + sweep.testbed() + " (network namespaces) "
                        + "joined by degen, MTU 1500, the delay added in each direction");
            }
            return points;
        }
    }

    /** One delay's points, measured between the testbed's hosts (server on B, client on A). */
    @FunctionalInterface
    interface DelayStep {
        void run(Hosts hosts, double delayMs) throws IOException, InterruptedException;
    }

    /**
     * How late degen may hand packets over (its own delay error, p99) before the points run over
     * that link are flagged: issue 16's bar for the emulated WAN.
     */
    static final long LINK_P99_TOLERANCE_NANOS = 100_000L;

    /**
     * For each delay: brings testbed {@code name} up with degen adding that delay in each direction
     * (MTU 1500), runs {@code step}, adds degen's own statistics for that delay to {@code notes}, and
     * takes it down; the testbed is down afterwards whatever happened.
     */
    static void overDelays(String name, List<Double> delaysMs, List<String> notes, PrintWriter pw,
                           DelayStep step)
            throws IOException, InterruptedException {
        Testbed tb = new Testbed(name);
        Topology t = tb.topologyFor(1500, 1500);
        Hosts hosts = new Hosts(List.of("ip", "netns", "exec", t.nsB()),
                List.of("ip", "netns", "exec", t.nsA()), t.addressOf("B"));
        try {
            for (double d : delaysMs) {
                LinkParams link = LinkParams.passThrough().withDelay((long) (d * 1_000_000));
                tb.up(Emulator.DEGEN, tb.config(link, link, 1500, 1500,
                        RouterTuning.DEFAULT, 1), null);
                step.run(hosts, d);
                var stats = tb.stats();
                stats.ifPresent(st -> notes.add(String.format(Locale.ROOT, "degen at %.1f ms: %s", d,
                        st.render().strip().replace('\n', ' '))));
                stats.flatMap(st -> st.deviation(LINK_P99_TOLERANCE_NANOS)).ifPresent(why -> {
                    String flag = String.format(Locale.ROOT, "FLAGGED: the points at %.1f ms ran over a link that "
                            + "differed from the one asked for: %s", d, why);
                    notes.add(flag);
                    pw.println(flag);
                    pw.flush();
                });
                tb.down();
            }
        } finally {
            try {
                tb.down();
            } catch (IOException e) {
                pw.println("taking the testbed down failed: " + e.getMessage());
            }
        }
    }
}
