package org.jwarp.bench.experiment;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Seed 001's Table I/II measurement: a one-way stream between two hosts, the host passing data to
 * the network in 8 KiB and 128 KiB chunks, through jwarp's offloaded sockets (the engine on a CPU
 * of its own) and through plain Java sockets; for each side, throughput and the host's CPU as % of
 * one CPU per Gb/s. Each side is a process of its own ({@link ToeStream}); runs are interleaved
 * (offloaded, then plain, for each chunk size) and repeated.
 */
public final class ToeExperiment {

    /** The paper's figures (seed 001, Tables I and II), % of one CPU per Gb/s. */
    public static final double PAPER_TOE_SEND_128K = 11;
    public static final double PAPER_TOE_SEND_8K = 14;
    public static final double PAPER_TOE_RECEIVE_128K = 12;
    public static final double PAPER_TOE_RECEIVE_8K = 24;
    public static final double PAPER_TCP_SEND = 81;
    public static final double PAPER_TCP_RECEIVE = 134;

    /**
     * Where the threads run on a two-CPU machine: each side's host threads on one CPU and its engine
     * thread on the other, crossed between the sides, so that each CPU carries one side's host and
     * the other side's engine (the plain-sockets sides: one CPU each).
     */
    public static final int SENDER_HOST_CPU = 0;
    public static final int SENDER_ENGINE_CPU = 1;
    public static final int RECEIVER_HOST_CPU = 1;
    public static final int RECEIVER_ENGINE_CPU = 0;

    private ToeExperiment() {
    }

    /**
     * Where the two hosts are: a command prefix that runs a process in each (e.g. {@code ip netns
     * exec NAME-a}), the receiver's bind address and the address the sender connects to.
     */
    public record Where(String name, String description, List<String> senderPrefix, List<String> receiverPrefix,
                        String receiverBind, String receiverAddress) {

        /** Both processes on this machine's loopback. */
        public static Where loopback() {
            return new Where("loopback", "two processes on 127.0.0.1", List.of(), List.of(), "127.0.0.1", "127.0.0.1");
        }
    }

    /** What runs. */
    public record Plan(List<Integer> chunks, double seconds, int repeats) {

        /** Under two minutes here: one 1.5 s run per point. */
        public static Plan quick() {
            return new Plan(List.of(131072, 8192), 1.5, 1);
        }

        /** Five interleaved runs of 4 s per point. */
        public static Plan full() {
            return new Plan(List.of(131072, 8192), 4, 5);
        }
    }

    /** One run: both sides of one transfer. */
    public record Run(String where, int repeat, ToeStream.SideResult sender, ToeStream.SideResult receiver) {
    }

    /** Runs the plan at each place, calling {@code progress} after each run. */
    public static List<Run> run(Plan plan, List<Where> places, Consumer<Run> progress) throws IOException,
            InterruptedException {
        List<Run> runs = new ArrayList<>();
        for (Where w : places) {
            for (int r = 0; r < plan.repeats(); r++) {
                for (int chunk : plan.chunks()) {
                    for (String stack : List.of("toe", "sockets")) {
                        Run run = once(w, r, stack, chunk, plan.seconds());
                        runs.add(run);
                        progress.accept(run);
                    }
                }
            }
        }
        return runs;
    }

    private static final Pattern LISTENING = Pattern.compile("listening on port (\\d+)");

    private static Run once(Where w, int repeat, String stack, int chunk, double seconds) throws IOException,
            InterruptedException {
        Child receiver = Child.start(w.receiverPrefix(), RECEIVER_HOST_CPU, List.of("receive", stack,
                Integer.toString(chunk), w.receiverBind(), Integer.toString(RECEIVER_ENGINE_CPU)));
        try {
            int port = receiver.port();
            Child sender = Child.start(w.senderPrefix(), SENDER_HOST_CPU, List.of("send", stack,
                    Integer.toString(chunk), w.receiverAddress(), Integer.toString(port), Double.toString(seconds),
                    Integer.toString(SENDER_ENGINE_CPU)));
            try {
                long limit = (long) (seconds * 1000) + 60_000;
                ToeStream.SideResult s = sender.result(limit);
                ToeStream.SideResult r = receiver.result(limit);
                if (s.bytes() != r.bytes()) {
                    throw new IOException("the receiver got " + r.bytes() + " bytes of the " + s.bytes() + " sent");
                }
                return new Run(w.name(), repeat, s, r);
            } finally {
                sender.destroy();
            }
        } finally {
            receiver.destroy();
        }
    }

    /** A side's process: its threads on {@code hostCpu} (taskset); the engine thread moves to its own CPU. */
    private static final class Child {
        private final Process process;
        private final StringBuilder output = new StringBuilder();
        private final CompletableFuture<Integer> port = new CompletableFuture<>();
        private final Thread reader;

        private Child(Process process) {
            this.process = process;
            reader = Thread.ofPlatform().daemon().name("toe-experiment-output").start(() -> {
                try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                        StandardCharsets.UTF_8))) {
                    for (String line = r.readLine(); line != null; line = r.readLine()) {
                        synchronized (output) {
                            output.append(line).append('\n');
                        }
                        Matcher m = LISTENING.matcher(line);
                        if (m.find()) {
                            port.complete(Integer.parseInt(m.group(1)));
                        }
                    }
                } catch (IOException e) {
                    port.completeExceptionally(e);
                }
                port.completeExceptionally(new IOException("the process ended before listening"));
            });
        }

        static Child start(List<String> prefix, int hostCpu, List<String> args) throws IOException {
            List<String> cmd = new ArrayList<>(prefix);
            if (new File("/usr/bin/taskset").canExecute()) {
                cmd.addAll(List.of("taskset", "-c", Integer.toString(hostCpu)));
            }
            cmd.add(ProcessHandle.current().info().command().orElse(
                    System.getProperty("java.home") + File.separator + "bin" + File.separator + "java"));
            cmd.addAll(List.of("--enable-native-access=ALL-UNNAMED", "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED",
                    "-cp", System.getProperty("java.class.path"), ToeStream.class.getName()));
            cmd.addAll(args);
            return new Child(new ProcessBuilder(cmd).redirectErrorStream(true).start());
        }

        int port() throws IOException, InterruptedException {
            try {
                return port.get(60, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                throw new IOException("the receiver did not start: " + e.getMessage() + "; it printed: " + text(), e);
            }
        }

        ToeStream.SideResult result(long millis) throws IOException, InterruptedException {
            if (!process.waitFor(millis, TimeUnit.MILLISECONDS)) {
                throw new IOException("a side did not finish within " + millis + " ms; it printed: " + text());
            }
            String t = text();
            if (process.exitValue() != 0) {
                throw new IOException("a side failed (exit " + process.exitValue() + "): " + t);
            }
            return ResultLines.all(t, ToeStream.SideResult.class, "side").getFirst();
        }

        private String text() throws InterruptedException {
            // an ended process's last lines (its result) may still be in the pipe: the reader takes them up to EOF
            if (process.waitFor(200, TimeUnit.MILLISECONDS)) {
                reader.join(java.time.Duration.ofSeconds(5));
            }
            synchronized (output) {
                return output.toString().strip();
            }
        }

        void destroy() {
            process.destroyForcibly();
        }
    }

    // ------------------------------------------------------------------ summary

    /** The median and range of one figure over the repeats of one point. */
    public record Stat(double median, double min, double max, int n) {

        static Stat of(List<Double> values) {
            List<Double> v = values.stream().sorted(Comparator.naturalOrder()).toList();
            if (v.isEmpty()) {
                return new Stat(Double.NaN, Double.NaN, Double.NaN, 0);
            }
            int n = v.size();
            double median = n % 2 == 1 ? v.get(n / 2) : (v.get(n / 2 - 1) + v.get(n / 2)) / 2;
            return new Stat(median, v.getFirst(), v.getLast(), n);
        }
    }

    /** One figure of one side, stack and chunk at one place, over its repeats. */
    public static Stat stat(List<Run> runs, String where, String stack, int chunk, boolean sender,
                            ToDoubleFunction<ToeStream.SideResult> figure) {
        List<Double> values = new ArrayList<>();
        for (Run r : runs) {
            ToeStream.SideResult s = sender ? r.sender() : r.receiver();
            if (r.where().equals(where) && s.stack().equals(stack) && s.chunk() == chunk) {
                values.add(figure.applyAsDouble(s));
            }
        }
        return Stat.of(values);
    }
}
