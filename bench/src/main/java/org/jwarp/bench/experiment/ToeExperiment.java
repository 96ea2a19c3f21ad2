package org.jwarp.bench.experiment;

import java.io.File;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.ToDoubleFunction;
import org.jwarp.bench.run.JvmProcess;

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

    private static Run once(Where w, int repeat, String stack, int chunk, double seconds) throws IOException,
            InterruptedException {
        JvmProcess receiver = side(w.receiverPrefix(), RECEIVER_HOST_CPU, List.of("receive", stack,
                Integer.toString(chunk), w.receiverBind(), Integer.toString(RECEIVER_ENGINE_CPU)), "receiver");
        try {
            int port = receiver.port();
            JvmProcess sender = side(w.senderPrefix(), SENDER_HOST_CPU, List.of("send", stack,
                    Integer.toString(chunk), w.receiverAddress(), Integer.toString(port), Double.toString(seconds),
                    Integer.toString(SENDER_ENGINE_CPU)), "sender");
            try {
                long limit = (long) Math.ceil(seconds) + 60;
                ToeStream.SideResult s = result(sender.awaitOutput(limit));
                ToeStream.SideResult r = result(receiver.awaitOutput(limit));
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
    private static JvmProcess side(List<String> prefix, int hostCpu, List<String> args, String what)
            throws IOException {
        List<String> cmd = new ArrayList<>(prefix);
        if (new File("/usr/bin/taskset").canExecute()) {
            cmd.addAll(List.of("taskset", "-c", Integer.toString(hostCpu)));
        }
        return JvmProcess.start(cmd, ToeStream.class.getName(), args, "toe " + what);
    }

    private static ToeStream.SideResult result(String output) throws IOException {
        return ResultLines.all(output, ToeStream.SideResult.class, "side").getFirst();
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
