package org.jwarp.bench.experiments;

import static org.jwarp.bench.experiments.Rows.f;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jwarp.bench.experiment.RssExperiment;
import org.jwarp.bench.experiment.RssReport;

/** Receive-side scaling (seed 004): wake-ups and batching as connections are added. */
final class Rss extends SeedExperiment {

    Rss() {
        super("rss", "seed 004: connections x engine threads x steering (RSS, round robin, one) x "
                + "moderation; throughput, wake-ups, FPDUs per wake-up, CPU per KiB",
                new Paper("Receive-Side Scaling (seed 004)", "seed 004",
                    "How do connections spread over engine threads by RSS, round robin or all on one, and what does "
                            + "interrupt (event) moderation change in wake-ups and batching?",
                    "With more connections per thread each wake-up finds more work (fewer wake-ups, more packets per "
                            + "wake-up); RSS spreads connections over the threads; moderation cuts wake-ups further."));
    }

    @Override
    public TableWords tableWords() {
        return TableWords.headers(Map.of("wakeups_per_s", "wake-ups/s", "fpdus_per_wakeup", "FPDUs per wake-up",
                "engine_cpu_ns_per_kib", "engine CPU, ns/KiB", "engines_used", "engines used"));
    }

    @Override
    public List<String> help() {
        return List.of("Seed 004's RSS measurement: N connections streaming RDMA WRITEs into a device whose engine "
                + "threads share them by RSS, round robin or all on one, completion events moderated or not.",
                "Both devices run in this process over 127.0.0.1; on a machine with few CPUs the figures show the "
                        + "mechanism (wake-ups, FPDUs per wake-up, which threads work), not scaling.",
                "Quick: 1, 8 and 32 connections, 1 and 2 engine threads, 0.5 s per point.");
    }

    @Override
    public List<ExperimentOption> options() {
        return List.of(ExperimentOption.list("--connections", "N,...", Integer.class, "Connection counts instead of "
                        + "the mode's."),
                ExperimentOption.list("--engines", "E,...", Integer.class, "Engine-thread counts instead of the "
                        + "mode's."),
                ExperimentOption.one("--seconds", "S", Double.class, "Seconds per point instead of the mode's."));
    }

    @Override
    public void run(ExperimentRun run) throws Exception {
        RssExperiment.Plan base = run.quick() ? RssExperiment.Plan.quick() : RssExperiment.Plan.full();
        RssExperiment.Plan plan = new RssExperiment.Plan(values(run, "--connections", base.connections(), 1000),
                values(run, "--engines", base.engines(), 64), base.steerings(), base.moderated(),
                run.range("--seconds", base.seconds(), 0.05, 600), base.size());
        Path dir = run.dir();
        run.out().printf(java.util.Locale.ROOT, "jwarp experiment rss (%s): connections %s, engine threads %s, %.2f s "
                + "per point%n", run.mode(), plan.connections(), plan.engines(), plan.seconds());
        run.out().printf(java.util.Locale.ROOT, " %-34s %11s %8s %12s %12s %10s%n", "series", "connections", "Gb/s",
                "wake-ups/s", "FPDUs/wake", "ns CPU/KiB");
        run.out().flush();
        List<RssExperiment.Result> results;
        try (ExperimentProgress bar = new ExperimentProgress(run.out(), plan.points().size())) {
            results = RssExperiment.run(plan, r -> bar.point(f(" %-34s %11d %8.2f %12.0f %12.1f %10.0f",
                    RssReport.series(r.point()), r.point().connections(), r.gbps(), r.wakeupsPerSecond(),
                    r.fpdusPerWakeup(), r.cpuNsPerKiB())));
        }
        List<String> notes = new ArrayList<>();
        notes.add(Runtime.getRuntime().availableProcessors() + " CPUs; engine threads not pinned; both devices and "
                + "the client thread in one JVM");
        List<Path> files = RssReport.write(dir, plan, results, run.mode(), notes);
        run.out().println("wrote " + files.size() + " files to " + dir);
        run.out().flush();
    }

    private static List<Integer> values(ExperimentRun run, String name, List<Integer> dflt, int max) {
        List<Integer> given = run.option(name);
        for (int v : given == null ? List.<Integer>of() : given) {
            if (v < 1 || v > max) {
                throw run.bad(name + " takes values from 1 to " + max + ", not " + v);
            }
        }
        return given == null ? dflt : List.copyOf(given);
    }

    @Override
    public Verdict verdict(RunResult e) {
        int engines = e.column("engines");
        int steering = e.column("steering");
        int moderated = e.column("moderated");
        int connections = e.column("connections");
        int wakeups = e.column("wakeups_per_s");
        String[] few = null;
        String[] many = null;
        for (String[] r : e.rows()) {
            if (r[engines].equals("1") && r[moderated].equals("false") && r[steering].equals("rss")) {
                if (few == null || Integer.parseInt(r[connections]) < Integer.parseInt(few[connections])) {
                    few = r;
                }
                if (many == null || Integer.parseInt(r[connections]) > Integer.parseInt(many[connections])) {
                    many = r;
                }
            }
        }
        if (few == null || few == many) {
            return Verdict.none("the run has fewer than two connection counts on one engine thread.");
        }
        double a = Double.parseDouble(few[wakeups]);
        double b = Double.parseDouble(many[wakeups]);
        String headline = f("wake-ups per second on one engine thread, %s → %s connections: %.0f → %.0f",
                few[connections], many[connections], a, b);
        return new Verdict(b < a ? Verdict.Outcome.REPRODUCED : Verdict.Outcome.NOT, headline,
                "W" + headline.substring(1) + " — " + (b < a ? "they fall as connections are added, as the paper's "
                + "batching argument predicts." : "they do not fall here."));
    }
}
