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
import java.util.function.ToDoubleFunction;
import org.jwarp.bench.experiment.RendezvousSide;
import org.jwarp.bench.experiment.ResultLines;
import org.jwarp.bench.experiment.SvgChart;
import org.jwarp.bench.experiments.ExperimentProcesses.Hosts;
import org.jwarp.bench.run.JvmProcess;

/**
 * Seed 000's rendezvous protocols (Fig. 9) measured: eager (copies through pre-posted receive
 * buffers) against WRITE-based and READ-based rendezvous (the receiver's or the sender's buffer
 * address exchanged for each message), by message size with no added delay (two processes on
 * loopback), and at {@link #DELAY_SIZE} by the delay degen adds between the testbed's hosts (root).
 * Each part is one receiver and one sender process ({@link RendezvousSide}) running every protocol
 * in turn; the figures are the sender's message latency and the receiver's CPU per message.
 */
public final class RendezvousExperiment {

    public static final String SCHEMA = "jwarp-experiment-rendezvous/1";
    static final int DELAY_SIZE = 65536;


    /** What runs. */
    record Plan(List<Integer> sizes, List<Double> delaysMs, int repeats, int messages, int warmup) {

        static Plan quick() {
            return new Plan(List.of(1024, 16384, 262144, 1048576), List.of(0.0, 2.0, 10.0), 1, 100, 20);
        }

        static Plan full() {
            return new Plan(List.of(256, 1024, 4096, 16384, 65536, 262144, 1048576, 4194304),
                    List.of(0.0, 1.0, 2.0, 5.0, 10.0), 3, 300, 50);
        }

        /** The points the plan measures, with the delay sweep or not. */
        int points(boolean delays) {
            return repeats * RendezvousSide.PROTOCOLS.size() * (sizes.size() + (delays ? delaysMs.size() : 0));
        }

        /** Messages per block at a delay: a rendezvous message takes two round trips; about 1 s per block. */
        int messagesAt(double delayMs) {
            return delayMs <= 0 ? messages : Math.max(10, Math.min(messages, (int) (1000 / (4 * delayMs))));
        }

        int warmupAt(double delayMs) {
            return delayMs <= 0 ? warmup : Math.min(warmup, 5);
        }
    }

    /** One block of messages. */
    public record Point(String part, String protocol, int size, double delayMs, int repeat, int messages, double medianUs,
                 double p99Us, double minUs, @ExperimentData.Column(json = "serverAppUsPerMessage") double serverAppUs,
                 @ExperimentData.Column(json = "serverEngineUsPerMessage") double serverEngineUs) {
    }

    private RendezvousExperiment() {
    }

    /** The size sweep at no added delay. */
    static List<Point> sizes(Plan plan, Hosts hosts, Consumer<Point> progress)
            throws IOException, InterruptedException {
        return run("size", hosts, plan.sizes(), 0, plan.repeats(), plan.messages(), plan.warmup(), progress);
    }

    /** The protocols at {@link #DELAY_SIZE} and delay {@code delayMs} (already set on the link). */
    static List<Point> delay(Plan plan, Hosts hosts, double delayMs, Consumer<Point> progress)
            throws IOException, InterruptedException {
        return run("delay", hosts, List.of(DELAY_SIZE), delayMs, plan.repeats(), plan.messagesAt(delayMs),
                plan.warmupAt(delayMs), progress);
    }

    private static List<Point> run(String part, Hosts hosts, List<Integer> sizes, double delayMs,
                                   int repeats, int messages, int warmup, Consumer<Point> progress)
            throws IOException, InterruptedException {
        String max = Integer.toString(sizes.stream().mapToInt(Integer::intValue).max().orElseThrow());
        List<Point> out = new ArrayList<>();
        try (JvmProcess server = JvmProcess.start(hosts.serverPrefix(), RendezvousSide.class.getName(),
                List.of("serve", max), "rendezvous server")) {
            JvmProcess.run(hosts.clientPrefix(), RendezvousSide.class.getName(), List.of("send", hosts.serverAddress(),
                    Integer.toString(server.port()), max, String.join(",", RendezvousSide.PROTOCOLS),
                    String.join(",", sizes.stream().map(String::valueOf).toList()), Integer.toString(messages),
                    Integer.toString(warmup), Integer.toString(repeats)), "rendezvous sender", line -> {
                        RendezvousSide.Result r = ResultLines.parse(line, RendezvousSide.Result.class,
                                "rendezvous sender");
                        if (r != null) {
                            int n = r.count();
                            Point p = new Point(part, r.protocol(), r.size(), delayMs, r.repeat(), n, r.medianUs(),
                                    r.p99Us(), r.minUs(), r.serverAppNs() / 1e3 / n, r.serverEngineNs() / 1e3 / n);
                            out.add(p);
                            progress.accept(p);
                        }
                    }, 120);
        }
        int expected = sizes.size() * repeats * RendezvousSide.PROTOCOLS.size();
        if (out.size() != expected) {
            throw new IOException("the rendezvous sender reported " + out.size() + " blocks of the " + expected
                    + " asked");
        }
        return out;
    }

    // ------------------------------------------------------------------ output

    static double median(List<Point> points, String part, String protocol, int size, double delay,
                         ToDoubleFunction<Point> figure) {
        List<Double> v = new ArrayList<>();
        for (Point p : points) {
            if (p.part().equals(part) && p.protocol().equals(protocol) && p.size() == size && p.delayMs() == delay) {
                v.add(figure.applyAsDouble(p));
            }
        }
        return ExperimentProcesses.median(v);
    }

    static String label(String protocol) {
        return switch (protocol) {
            case "eager" -> "eager (SEND, copies)";
            case "write" -> "WRITE-based rendezvous";
            default -> "READ-based rendezvous";
        };
    }

    static List<Path> write(Path dir, Plan plan, List<Point> points, String mode, List<String> notes)
            throws IOException {
        Map<String, Object> head = new LinkedHashMap<>();
        head.put("sizes", plan.sizes());
        head.put("delaysMs", plan.delaysMs());
        head.put("delaySize", DELAY_SIZE);
        head.put("repeats", plan.repeats());
        head.put("messages", plan.messages());
        List<Path> files = ExperimentData.write(dir, SCHEMA, mode, head, notes, Point.class, points);
        SvgChart lat = new SvgChart("Message latency by size, no added delay (seed 000 Fig. 9)", "message size, bytes",
                "latency until the receiver has it, µs (median)");
        SvgChart cpu = new SvgChart("Receiver's application CPU per message by size", "message size, bytes",
                "µs of CPU per message");
        for (String pr : RendezvousSide.PROTOCOLS) {
            for (int size : plan.sizes()) {
                lat.point(label(pr), size, median(points, "size", pr, size, 0, Point::medianUs));
                cpu.point(label(pr) + ", application", size, median(points, "size", pr, size, 0, Point::serverAppUs));
                cpu.point(label(pr) + ", engine", size, median(points, "size", pr, size, 0, Point::serverEngineUs));
            }
        }
        files.add(Files.writeString(dir.resolve("latency-by-size.svg"), lat.render()));
        files.add(Files.writeString(dir.resolve("server-cpu-by-size.svg"), cpu.render()));
        boolean delays = points.stream().anyMatch(p -> p.part().equals("delay"));
        if (delays) {
            SvgChart byDelay = new SvgChart("Message latency at 64 KiB by added delay (seed 000 Fig. 9)",
                    "one-way delay added by degen, ms (0 drawn at 0.1)", "latency until the receiver has it, ms (median)");
            for (String pr : RendezvousSide.PROTOCOLS) {
                for (double d : plan.delaysMs()) {
                    byDelay.point(label(pr), d > 0 ? d : 0.1, median(points, "delay", pr, DELAY_SIZE, d,
                            Point::medianUs) / 1000);
                }
            }
            files.add(Files.writeString(dir.resolve("latency-by-delay.svg"), byDelay.render()));
        }
        files.add(Files.writeString(dir.resolve("README.md"), readme(plan, points, mode, notes, delays)));
        return files;
    }

    private static String readme(Plan plan, List<Point> points, String mode, List<String> notes, boolean delays) {
        StringBuilder md = new StringBuilder("# Rendezvous protocols (seed 000, Fig. 9)\n\n");
        md.append("Mode: ").append(mode).append(". A sender process moves messages into a receiver process's ")
                .append("application buffer by eager SENDs (a copy into a bounce buffer, a SEND into a pre-posted ")
                .append("receive buffer, a copy out, an ACK), by WRITE-based rendezvous (RNDZ_START, RNDZ_REPLY with ")
                .append("the receiver's STag and address, RDMA WRITE, FIN, ACK) and by READ-based rendezvous ")
                .append("(RNDZ_START with the sender's STag and address, RDMA READ by the receiver, FIN). Latency: from ")
                .append("the sender's first action until it has the receiver's last word (ACK or FIN), the median of ")
                .append(plan.messages()).append(" messages (fewer at large delays) after unreported warm-up ones. The ")
                .append("receiver's CPU: its threads' CPU time over the messages, per message, application thread ")
                .append("(copies, posting) and engine thread (the soft RNIC). Both sides sleep on completion events ")
                .append("between messages. ").append(plan.repeats()).append(" run(s) per point; medians.\n\n");
        for (String n : notes) {
            md.append("- ").append(n).append('\n');
        }
        md.append("\n| part | size | delay, ms | eager, µs | WRITE rndv, µs | READ rndv, µs | receiver app CPU/msg, µs: "
                + "eager / WRITE / READ |\n|---|---|---|---|---|---|---|\n");
        for (int size : plan.sizes()) {
            row(md, points, "size", size, 0);
        }
        if (delays) {
            for (double d : plan.delaysMs()) {
                row(md, points, "delay", DELAY_SIZE, d);
            }
        }
        md.append("\nThe paper draws the two rendezvous protocols (Fig. 9) and argues, without numbers, that they save ")
                .append("the copy for large messages on a fast link but add the address exchange's round trips, which a ")
                .append("high-delay link makes dominant. Here eager is one round trip (message, ACK) and both rendezvous ")
                .append("protocols two.\n\nPlots: `latency-by-size.svg`, `server-cpu-by-size.svg`")
                .append(delays ? ", `latency-by-delay.svg`" : "").append(". Data: `results.csv`, `results.json` (")
                .append(SCHEMA).append(").\n");
        return md.toString();
    }

    private static void row(StringBuilder md, List<Point> points, String part, int size, double d) {
        md.append(String.format(Locale.ROOT, "| %s | %d | %.1f | %.1f | %.1f | %.1f | %.1f / %.1f / %.1f |%n", part, size,
                d, median(points, part, "eager", size, d, Point::medianUs),
                median(points, part, "write", size, d, Point::medianUs),
                median(points, part, "read", size, d, Point::medianUs),
                median(points, part, "eager", size, d, Point::serverAppUs),
                median(points, part, "write", size, d, Point::serverAppUs),
                median(points, part, "read", size, d, Point::serverAppUs)));
    }
}
