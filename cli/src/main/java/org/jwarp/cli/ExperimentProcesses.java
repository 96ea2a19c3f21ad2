package org.jwarp.cli;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jwarp.bench.report.PerfDocument;
import org.jwarp.degen.testbed.Testbed;

/**
 * What the two-process experiments (latency, progress) share: each side a JVM of its own (this
 * one's launcher and class path, run through a command prefix such as {@code ip netns exec}), a
 * server that announces its port, a client whose output is the result; and their options.
 */
final class ExperimentProcesses {

    private ExperimentProcesses() {
    }

    /** Starts {@code main} with {@code args} in a JVM of its own, behind {@code prefix}; stdout and stderr merged. */
    static Process start(List<String> prefix, Class<?> main, List<String> args) throws IOException {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.add(ProcessHandle.current().info().command().orElse(
                System.getProperty("java.home") + File.separator + "bin" + File.separator + "java"));
        cmd.addAll(List.of("--enable-native-access=ALL-UNNAMED", "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
                "-cp", System.getProperty("java.class.path"), main.getName()));
        cmd.addAll(args);
        return new ProcessBuilder(cmd).redirectErrorStream(true).start();
    }

    /** A server process, the port it announced, and all it prints (complete when it ends). */
    record Server(Process process, int port, CompletableFuture<String> output) implements AutoCloseable {

        /** Waits (60 s) for the server to end and returns all it printed. */
        String awaitOutput() throws IOException, InterruptedException {
            try {
                return output.get(60, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                process.destroyForcibly();
                throw new IOException("the server did not end after its client", e);
            }
        }

        /** Waits for the server to end after its client (30 s), then kills it if it has not. */
        @Override
        public void close() throws InterruptedException {
            if (!process.waitFor(30, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        }
    }

    /** Starts a server and waits (60 s) for the line in which {@code announce}'s group 1 is its port. */
    static Server server(List<String> prefix, Class<?> main, List<String> args, Pattern announce) throws IOException {
        Process p = start(prefix, main, args);
        StringBuilder out = new StringBuilder();
        CompletableFuture<Integer> port = new CompletableFuture<>();
        CompletableFuture<String> all = new CompletableFuture<>();
        Thread.ofPlatform().daemon().start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    synchronized (out) {
                        out.append(line).append('\n');
                    }
                    Matcher m = announce.matcher(line);
                    if (m.find()) {
                        port.complete(Integer.parseInt(m.group(1)));
                    }
                }
            } catch (IOException e) {
                port.completeExceptionally(e);
                all.completeExceptionally(e);
            }
            port.completeExceptionally(new IOException("the server ended before listening"));
            synchronized (out) {
                all.complete(out.toString());
            }
        });
        try {
            return new Server(p, port.get(60, TimeUnit.SECONDS), all);
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while the server started", e);
        } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
            p.destroyForcibly();
            synchronized (out) {
                throw new IOException("the " + main.getSimpleName() + " server did not start: " + out.toString().strip(), e);
            }
        }
    }

    /**
     * Runs a client to its end (120 s) and returns its output.
     *
     * @throws IOException with the output if it failed or did not end
     */
    static String client(List<String> prefix, Class<?> main, List<String> args, String what)
            throws IOException, InterruptedException {
        return client(prefix, main, args, what, line -> { });
    }

    /** As {@link #client(List, Class, List, String)}, handing each line to {@code onLine} as it comes. */
    static String client(List<String> prefix, Class<?> main, List<String> args, String what,
                         java.util.function.Consumer<String> onLine) throws IOException, InterruptedException {
        Process c = start(prefix, main, args);
        StringBuilder out = new StringBuilder();
        try (BufferedReader r = new BufferedReader(new InputStreamReader(c.getInputStream(), StandardCharsets.UTF_8))) {
            for (String line = r.readLine(); line != null; line = r.readLine()) {
                onLine.accept(line);
                out.append(line).append('\n');
            }
        }
        if (!c.waitFor(120, TimeUnit.SECONDS) || c.exitValue() != 0) {
            c.destroyForcibly();
            throw new IOException("the " + what + " client failed: " + out.toString().strip());
        }
        return out.toString();
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

    private static final Pattern WAITING = Pattern.compile("waiting for a client on port (\\d+)");

    /**
     * One run of a perf test ({@code jwarp TEST}) between a server on {@code hosts}' server side and
     * a client on its client side, each a process of its own as a user runs them; both get
     * {@code bothArgs} (device options), the client also {@code clientArgs} (the workload) and
     * {@code --json}. Returns the client's document, which says the run was verified.
     */
    static PerfDocument perf(LatencyExperiment.Hosts hosts, String test, String transport, List<String> bothArgs,
                       List<String> clientArgs, java.util.function.Consumer<String> onLine)
            throws IOException, InterruptedException {
        List<String> serverArgs = new ArrayList<>(List.of(test, "--transport", transport, "-p", "0"));
        serverArgs.addAll(bothArgs);
        try (Server server = server(hosts.serverPrefix(), JwarpCommand.class, serverArgs, WAITING)) {
            List<String> args = new ArrayList<>(List.of(test, hosts.serverAddress(), "-p", Integer.toString(server.port()),
                    "--transport", transport, "--json"));
            args.addAll(bothArgs);
            args.addAll(clientArgs);
            String out = client(hosts.clientPrefix(), JwarpCommand.class, args, test + " (" + transport + " "
                    + String.join(" ", clientArgs) + ")", onLine);
            PerfDocument doc = document(out, test);
            if (!doc.verified()) {
                throw new IOException("the " + test + " run was not verified: " + out.strip());
            }
            return doc;
        }
    }

    /** {@code results/NAME-TIMESTAMP}. */
    static Path defaultDir(String name) {
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
    static <P> double median(List<P> points, java.util.function.Predicate<P> which,
                             java.util.function.ToDoubleFunction<P> value) {
        return median(points.stream().filter(which).map(p -> value.applyAsDouble(p)).toList());
    }

    /** The points of one part of an experiment, on {@code hosts}, each handed to {@code progress} as it comes. */
    @FunctionalInterface
    interface Part<P> {
        List<P> run(LatencyExperiment.Hosts hosts, double delayMs, java.util.function.Consumer<P> progress)
                throws IOException, InterruptedException;
    }

    /**
     * An experiment's two parts: {@code loopback} on loopback at no added delay, then, if
     * {@code delays}, {@code part} at each of {@code delaysMs} between the hosts of testbed
     * {@code name} ({@link #overDelays}), noting {@code how} the delay part ran. Each point's
     * {@code line} goes to {@code pw} as it comes, with the progress bar ({@link ExperimentProgress})
     * counting to {@code total}.
     */
    static <P> List<P> loopbackThenDelays(Part<P> loopback, boolean delays, Part<P> part, String name,
                                          List<Double> delaysMs, String how, int total,
                                          java.util.function.Function<P, String> line, List<String> notes,
                                          java.io.PrintWriter pw) throws IOException, InterruptedException {
        try (ExperimentProgress bar = new ExperimentProgress(pw, total)) {
            java.util.function.Consumer<P> progress = p -> bar.point(line.apply(p));
            List<P> points = new ArrayList<>(loopback.run(LatencyExperiment.Hosts.loopback(), 0, progress));
            if (delays) {
                overDelays(name, delaysMs, notes, pw, (hosts, d) -> points.addAll(part.run(hosts, d, progress)));
                notes.add("delay sweep: " + how + " of testbed " + name + " (network namespaces) joined by degen, MTU "
                        + "1500, the delay added in each direction");
            }
            return points;
        }
    }

    /** One delay's points, measured between the testbed's hosts (server on B, client on A). */
    @FunctionalInterface
    interface DelayStep {
        void run(LatencyExperiment.Hosts hosts, double delayMs) throws IOException, InterruptedException;
    }

    /**
     * For each delay: brings testbed {@code name} up with degen adding that delay in each direction
     * (MTU 1500), runs {@code step}, adds degen's own statistics for that delay to {@code notes}, and
     * takes it down; the testbed is down afterwards whatever happened.
     */
    /**
     * How late degen may hand packets over (its own delay error, p99) before the points run over
     * that link are flagged: issue 16's bar for the emulated WAN.
     */
    static final long LINK_P99_TOLERANCE_NANOS = 100_000L;

    static void overDelays(String name, List<Double> delaysMs, List<String> notes, java.io.PrintWriter pw,
                           DelayStep step)
            throws IOException, InterruptedException {
        Testbed tb = new Testbed(name);
        org.jwarp.degen.testbed.Topology t = tb.topologyFor(1500, 1500);
        LatencyExperiment.Hosts hosts = new LatencyExperiment.Hosts(List.of("ip", "netns", "exec", t.nsB()),
                List.of("ip", "netns", "exec", t.nsA()), t.addressOf("B"));
        try {
            for (double d : delaysMs) {
                org.jwarp.degen.LinkParams link = org.jwarp.degen.LinkParams.passThrough().withDelay((long) (d * 1_000_000));
                tb.up(org.jwarp.degen.testbed.Emulator.DEGEN, tb.config(link, link, 1500, 1500,
                        org.jwarp.degen.RouterTuning.DEFAULT, 1), null);
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
