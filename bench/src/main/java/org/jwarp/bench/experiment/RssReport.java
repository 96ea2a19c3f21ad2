package org.jwarp.bench.experiment;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.jwarp.bench.json.JsonCodec;

/**
 * Writes an RSS experiment's results into its directory: {@code results.csv}, {@code results.json}
 * (schema {@link #SCHEMA}), the plots as SVG, and a {@code README.md} saying what ran and where.
 */
public final class RssReport {

    public static final String SCHEMA = "jwarp-experiment-rss/1";
    static final String CSV_HEADER = "engines,steering,moderated,connections,seconds,bytes,gbps,wakeups_per_s,"
            + "fpdus_per_wakeup,engine_cpu_ns_per_kib,engines_used";

    private RssReport() {
    }

    /** Writes every file; returns the files written. */
    public static List<Path> write(Path dir, RssExperiment.Plan plan, List<RssExperiment.Result> results, String mode,
                                   List<String> notes) throws IOException {
        Files.createDirectories(dir);
        List<Path> out = new ArrayList<>();
        out.add(Files.writeString(dir.resolve("results.csv"), csv(results)));
        out.add(Files.writeString(dir.resolve("results.json"), JsonCodec.write(RssDocument.of(plan, results, mode,
                Machine.withNote(notes))) + "\n"));
        out.add(Files.writeString(dir.resolve("throughput.svg"), chart(results, "Aggregate RDMA WRITE throughput",
                "Gb/s", RssExperiment.Result::gbps)));
        out.add(Files.writeString(dir.resolve("wakeups.svg"), chart(results, "Receiving engine threads' wake-ups",
                "wake-ups per second", RssExperiment.Result::wakeupsPerSecond)));
        out.add(Files.writeString(dir.resolve("cpu.svg"), chart(results, "Receiving engine CPU per KiB",
                "ns per KiB", RssExperiment.Result::cpuNsPerKiB)));
        out.add(Files.writeString(dir.resolve("README.md"), readme(plan, results, mode, notes)));
        return out;
    }

    static String csv(List<RssExperiment.Result> results) {
        StringBuilder sb = new StringBuilder(CSV_HEADER).append('\n');
        for (RssExperiment.Result r : results) {
            RssExperiment.Point p = r.point();
            sb.append(String.format(Locale.ROOT, "%d,%s,%b,%d,%.3f,%d,%.3f,%.1f,%.2f,%.1f,%d%n", p.engines(),
                    steering(p), p.moderated(), p.connections(), r.seconds(), r.bytes(), r.gbps(), r.wakeupsPerSecond(),
                    r.fpdusPerWakeup(), r.cpuNsPerKiB(), r.enginesUsed()));
        }
        return sb.toString();
    }

    private static String chart(List<RssExperiment.Result> results, String title, String yLabel,
                                java.util.function.ToDoubleFunction<RssExperiment.Result> y) {
        SvgChart c = new SvgChart(title, "connections", yLabel);
        for (RssExperiment.Result r : results) {
            c.point(series(r.point()), r.point().connections(), y.applyAsDouble(r));
        }
        return c.render();
    }

    /** The plot series a point belongs to, e.g. "2 engines, rss, moderated". */
    public static String series(RssExperiment.Point p) {
        return p.engines() + " engine" + (p.engines() == 1 ? "" : "s") + (p.engines() == 1 ? "" : ", " + steering(p))
                + (p.moderated() ? ", moderated" : "");
    }

    static String steering(RssExperiment.Point p) {
        return p.steering().name().toLowerCase(Locale.ROOT).replace('_', '-');
    }

    private static String readme(RssExperiment.Plan plan, List<RssExperiment.Result> results, String mode,
                                 List<String> notes) {
        StringBuilder sb = new StringBuilder("# RSS experiment (seed 004)\n\n");
        sb.append("Mode: ").append(mode).append(". ").append(plan.connections().size()).append(" connection counts ")
                .append(plan.connections()).append(", engine threads ").append(plan.engines()).append(", ")
                .append(plan.seconds()).append(" s per point, ").append(plan.size())
                .append("-byte RDMA WRITEs, ").append(RssExperiment.DEPTH).append(" in flight per connection.\n\n");
        sb.append("Both devices run in one process over 127.0.0.1: a client device streams WRITEs on every connection, ")
                .append("the receiving device's engine threads share the connections by the steering named. ")
                .append("Figures are of the receiving device: its engine threads' wake-ups from a park ")
                .append("(per second) and FPDUs received per wake-up, their CPU time per KiB, and how many of them ")
                .append("carried a connection. Moderated points wait for completion events on the client, one per ")
                .append(RssExperiment.MODERATED.count()).append(" completions or ")
                .append(RssExperiment.MODERATED.periodMicros()).append(" µs.\n\n");
        for (String n : notes) {
            sb.append("- ").append(n).append('\n');
        }
        sb.append("\n| engines | steering | moderated | connections | Gb/s | wake-ups/s | FPDUs/wake-up | ns CPU/KiB "
                + "| engines used |\n|---|---|---|---|---|---|---|---|---|\n");
        for (RssExperiment.Result r : results) {
            RssExperiment.Point p = r.point();
            sb.append(String.format(Locale.ROOT, "| %d | %s | %s | %d | %.2f | %.0f | %.1f | %.0f | %d |%n", p.engines(),
                    steering(p), p.moderated() ? "yes" : "no", p.connections(), r.gbps(), r.wakeupsPerSecond(),
                    r.fpdusPerWakeup(), r.cpuNsPerKiB(), r.enginesUsed()));
        }
        sb.append("\nPlots: `throughput.svg`, `wakeups.svg`, `cpu.svg`. Data: `results.csv`, `results.json` (")
                .append(SCHEMA).append(").\n");
        return sb.toString();
    }
}
