package org.jwarp.bench.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jwarp.bench.json.JsonCodec;

/**
 * The offloaded-sockets experiment's output: seed 001's Table I layout with the paper's figures
 * beside ours, and {@code results.csv}, {@code results.json} (schema {@link #SCHEMA}), SVG plots and
 * a {@code README.md} in the output directory.
 */
public final class ToeReport {

    public static final String SCHEMA = "jwarp-experiment-toe/1";
    static final String CSV_HEADER = "where,repeat,stack,chunk,side,bytes,seconds,gbps,host_cpu_s,engine_cpu_s,"
            + "host_pct_cpu_per_gbps,engine_pct_cpu_per_gbps,interrupts,events,requests";

    private ToeReport() {
    }

    /** The Table I layout for one place: % of one CPU per Gb/s and throughput, ours and the paper's. */
    public static String table(List<ToeExperiment.Run> runs, ToeExperiment.Where where, List<Integer> chunks) {
        StringBuilder sb = new StringBuilder();
        sb.append(where.name()).append(": ").append(where.description()).append('\n');
        sb.append(String.format(Locale.ROOT, "%-34s", "")).append(center("Sending side", chunks.size()))
                .append(center("Receiving side", chunks.size())).append('\n');
        sb.append(String.format(Locale.ROOT, "%-34s", "% of one CPU per Gb/s"));
        for (int side = 0; side < 2; side++) {
            for (int c : chunks) {
                sb.append(String.format(Locale.ROOT, "%20s", kib(c) + " chunks"));
            }
        }
        sb.append('\n');
        row(sb, "paper: TOE (emulated, Table II)", chunks, (send, c) -> paperToe(send, c));
        row(sb, "paper: Solaris TCP (Table I)", chunks, (send, c) -> send ? ToeExperiment.PAPER_TCP_SEND
                : ToeExperiment.PAPER_TCP_RECEIVE);
        statRow(sb, runs, where, "jwarp TOE: host CPU", "toe", chunks, ToeStream.SideResult::hostPercentPerGbps, "%.1f");
        statRow(sb, runs, where, "Java sockets: host CPU", "sockets", chunks, ToeStream.SideResult::hostPercentPerGbps,
                "%.1f");
        statRow(sb, runs, where, "jwarp TOE: engine CPU (not host)", "toe", chunks,
                ToeStream.SideResult::enginePercentPerGbps, "%.1f");
        sb.append(String.format(Locale.ROOT, "%-34s", "throughput, Gb/s")).append('\n');
        statRow(sb, runs, where, "  jwarp TOE", "toe", chunks, ToeStream.SideResult::gbps, "%.2f");
        statRow(sb, runs, where, "  Java sockets", "sockets", chunks, ToeStream.SideResult::gbps, "%.2f");
        sb.append(String.format(Locale.ROOT, "%-34s", "host CPU, TOE / sockets"));
        for (int side = 0; side < 2; side++) {
            boolean send = side == 0;
            for (int c : chunks) {
                double t = ToeExperiment.stat(runs, where.name(), "toe", c, send,
                        ToeStream.SideResult::hostPercentPerGbps).median();
                double s = ToeExperiment.stat(runs, where.name(), "sockets", c, send,
                        ToeStream.SideResult::hostPercentPerGbps).median();
                sb.append(String.format(Locale.ROOT, "%20s", String.format(Locale.ROOT, "%.2f", t / s)));
            }
        }
        sb.append('\n');
        return sb.toString();
    }

    private interface Cell {
        double value(boolean send, int chunk);
    }

    private static void row(StringBuilder sb, String label, List<Integer> chunks, Cell cell) {
        sb.append(String.format(Locale.ROOT, "%-34s", label));
        for (int side = 0; side < 2; side++) {
            for (int c : chunks) {
                double v = cell.value(side == 0, c);
                sb.append(String.format(Locale.ROOT, "%20s", Double.isNaN(v) ? "-" : String.format(Locale.ROOT, "%.0f", v)));
            }
        }
        sb.append('\n');
    }

    private static void statRow(StringBuilder sb, List<ToeExperiment.Run> runs, ToeExperiment.Where where, String label,
                                String stack, List<Integer> chunks,
                                java.util.function.ToDoubleFunction<ToeStream.SideResult> f, String fmt) {
        sb.append(String.format(Locale.ROOT, "%-34s", label));
        for (int side = 0; side < 2; side++) {
            for (int c : chunks) {
                ToeExperiment.Stat s = ToeExperiment.stat(runs, where.name(), stack, c, side == 0, f);
                String v = String.format(Locale.ROOT, fmt, s.median());
                if (s.n() > 1) {
                    v += String.format(Locale.ROOT, " (" + fmt + "-" + fmt + ")", s.min(), s.max());
                }
                sb.append(String.format(Locale.ROOT, "%20s", v));
            }
        }
        sb.append('\n');
    }

    /** The paper's TOE figure for a side and chunk (8 KB and 128 KB only), else NaN. */
    static double paperToe(boolean send, int chunk) {
        if (chunk == 131072) {
            return send ? ToeExperiment.PAPER_TOE_SEND_128K : ToeExperiment.PAPER_TOE_RECEIVE_128K;
        }
        if (chunk == 8192) {
            return send ? ToeExperiment.PAPER_TOE_SEND_8K : ToeExperiment.PAPER_TOE_RECEIVE_8K;
        }
        return Double.NaN;
    }

    private static String center(String s, int columns) {
        int w = 20 * columns;
        int pad = Math.max(0, (w - s.length()) / 2);
        return " ".repeat(pad) + s + " ".repeat(Math.max(0, w - pad - s.length()));
    }

    static String kib(int bytes) {
        return bytes % 1024 == 0 ? bytes / 1024 + " KiB" : bytes + " B";
    }

    /** Writes every file; returns the files written. */
    public static List<Path> write(Path dir, ToeExperiment.Plan plan, List<ToeExperiment.Where> places,
                                   List<ToeExperiment.Run> runs, String mode, List<String> notes) throws IOException {
        Files.createDirectories(dir);
        List<Path> out = new ArrayList<>();
        out.add(Files.writeString(dir.resolve("results.csv"), csv(runs)));
        out.add(Files.writeString(dir.resolve("results.json"), JsonCodec.write(ToeDocument.of(plan, places, runs, mode,
                Machine.withNote(notes))) + "\n"));
        for (ToeExperiment.Where w : places) {
            out.add(Files.writeString(dir.resolve("cpu-" + w.name() + ".svg"), cpuChart(runs, w, plan.chunks())));
            out.add(Files.writeString(dir.resolve("throughput-" + w.name() + ".svg"), throughputChart(runs, w, plan.chunks())));
        }
        out.add(Files.writeString(dir.resolve("README.md"), readme(plan, places, runs, mode, notes)));
        return out;
    }

    static String csv(List<ToeExperiment.Run> runs) {
        StringBuilder sb = new StringBuilder(CSV_HEADER).append('\n');
        for (ToeExperiment.Run r : runs) {
            for (ToeStream.SideResult s : List.of(r.sender(), r.receiver())) {
                sb.append(String.format(Locale.ROOT, "%s,%d,%s,%d,%s,%d,%.4f,%.4f,%.4f,%.4f,%.2f,%.2f,%d,%d,%d%n",
                        r.where(), r.repeat(), s.stack(), s.chunk(), s.role(), s.bytes(), s.elapsedNanos() / 1e9,
                        s.gbps(), s.hostCpuNanos() / 1e9, s.engineCpuNanos() / 1e9, s.hostPercentPerGbps(),
                        s.enginePercentPerGbps(), s.interrupts(), s.events(), s.requests()));
            }
        }
        return sb.toString();
    }

    private static String cpuChart(List<ToeExperiment.Run> runs, ToeExperiment.Where w, List<Integer> chunks) {
        SvgChart c = new SvgChart("Host CPU per Gb/s (" + w.name() + ")", "chunk, KiB", "% of one CPU per Gb/s");
        for (int chunk : chunks) {
            double x = chunk / 1024.0;
            for (boolean send : new boolean[] {true, false}) {
                String side = send ? "sending" : "receiving";
                for (String stack : List.of("toe", "sockets")) {
                    double v = ToeExperiment.stat(runs, w.name(), stack, chunk, send,
                            ToeStream.SideResult::hostPercentPerGbps).median();
                    if (!Double.isNaN(v)) {
                        c.point((stack.equals("toe") ? "jwarp TOE, " : "Java sockets, ") + side, x, v);
                    }
                }
                double paper = paperToe(send, chunk);
                if (!Double.isNaN(paper)) {
                    c.point("paper TOE, " + side, x, paper);
                }
            }
        }
        return c.render();
    }

    private static String throughputChart(List<ToeExperiment.Run> runs, ToeExperiment.Where w, List<Integer> chunks) {
        SvgChart c = new SvgChart("Throughput, median of the runs (" + w.name() + ")", "chunk, KiB", "Gb/s");
        for (int chunk : chunks) {
            for (String stack : List.of("toe", "sockets")) {
                double g = ToeExperiment.stat(runs, w.name(), stack, chunk, false, ToeStream.SideResult::gbps).median();
                if (!Double.isNaN(g)) {
                    c.point(stack.equals("toe") ? "jwarp TOE" : "Java sockets", chunk / 1024.0, g);
                }
            }
        }
        return c.render();
    }

    private static String readme(ToeExperiment.Plan plan, List<ToeExperiment.Where> places,
                                 List<ToeExperiment.Run> runs, String mode, List<String> notes) {
        StringBuilder sb = new StringBuilder("# Offloaded sockets experiment (seed 001, Tables I and II)\n\n");
        sb.append("Mode: ").append(mode).append(". A one-way stream, one connection, the host passing data in ")
                .append(plan.chunks().stream().map(ToeReport::kib).toList()).append(" chunks, ")
                .append(plan.seconds()).append(" s per run, ").append(plan.repeats())
                .append(" interleaved run(s) per point (jwarp TOE, then Java sockets). Each side is a process of its "
                        + "own. The sender's host threads (the application and every other JVM thread, by taskset) run "
                        + "on CPU ").append(ToeExperiment.SENDER_HOST_CPU).append(" and its engine thread on CPU ")
                .append(ToeExperiment.SENDER_ENGINE_CPU).append("; the receiver's host threads on CPU ")
                .append(ToeExperiment.RECEIVER_HOST_CPU).append(" and its engine on CPU ")
                .append(ToeExperiment.RECEIVER_ENGINE_CPU).append(": with two CPUs, each carries one side's host and "
                        + "the other side's engine. Host CPU = the process's CPU time minus the engine thread's, over "
                        + "the transfer (kernel time included).\n\n");
        for (String n : notes) {
            sb.append("- ").append(n).append('\n');
        }
        for (ToeExperiment.Where w : places) {
            sb.append("\n```\n").append(table(runs, w, plan.chunks())).append("```\n\n");
            sb.append("![host CPU](cpu-").append(w.name()).append(".svg) ![throughput](throughput-").append(w.name())
                    .append(".svg)\n");
        }
        sb.append("\nData: `results.csv`, `results.json` (").append(SCHEMA).append(").\n");
        return sb.toString();
    }
}
