package org.jwarp.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.jwarp.bench.experiment.RssExperiment;
import org.jwarp.bench.experiment.RssReport;
import org.jwarp.bench.experiments.Experiment;
import org.jwarp.bench.experiments.Experiments;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code jwarp experiment}: the papers' experiments, each one command writing data, plots and a README. */
@Command(name = "experiment", mixinStandardHelpOptions = true,
        description = "The seed papers' experiments: each writes results.csv, results.json, SVG plots and a README.md "
                + "into its output directory (default results/NAME-TIMESTAMP/).",
        subcommands = {ExperimentCommand.ListExperiments.class, ExperimentCommand.Rss.class,
                LatencyExperimentCommand.class, ProgressExperimentCommand.class, OverlapExperimentCommand.class,
                CpuImpactExperimentCommand.class, RendezvousExperimentCommand.class, IwarpVsTcpExperimentCommand.class,
                VerbsOptionsExperimentCommand.class, ToeExperimentCommand.class, AllExperimentsCommand.class})
final class ExperimentCommand extends GroupCommand {

    /** {@code jwarp experiment list}: the registry's experiments ({@link Experiments}), then {@code all}. */
    @Command(name = "list", mixinStandardHelpOptions = true, description = "What experiments exist.")
    static final class ListExperiments implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Override
        public Integer call() {
            PrintWriter out = spec.commandLine().getOut();
            for (Experiment e : Experiments.ALL) {
                row(out, e.name(), e.description());
            }
            row(out, "all", "every experiment above in turn, each into DIR/NAME, then the report of them all (DIR/report.html)");
            out.flush();
            return 0;
        }

        private static void row(PrintWriter out, String name, String what) {
            out.printf("%-14s%s%n", name, what);
        }
    }

    /** {@code jwarp experiment rss}. */
    @Command(name = "rss", mixinStandardHelpOptions = true, sortOptions = false,
            description = {"Seed 004's RSS measurement: N connections streaming RDMA WRITEs into a device whose engine "
                    + "threads share them by RSS, round robin or all on one, completion events moderated or not.",
                    "Both devices run in this process over 127.0.0.1; on a machine with few CPUs the figures show the "
                            + "mechanism (wake-ups, FPDUs per wake-up, which threads work), not scaling.",
                    "Quick: 1, 8 and 32 connections, 1 and 2 engine threads, 0.5 s per point."})
    static final class Rss implements Callable<Integer> {
        @Spec
        CommandSpec spec;

        @Mixin
        ExperimentOptions options;

        @Option(names = "--connections", paramLabel = "N,...", split = ",", description = "Connection counts instead "
                + "of the mode's.")
        List<Integer> connections;

        @Option(names = "--engines", paramLabel = "E,...", split = ",", description = "Engine-thread counts instead of "
                + "the mode's.")
        List<Integer> engines;

        @Option(names = "--seconds", paramLabel = "S", description = "Seconds per point instead of the mode's.")
        Double seconds;

        @Override
        public Integer call() throws Exception {
            RssExperiment.Plan base = options.quick ? RssExperiment.Plan.quick() : RssExperiment.Plan.full();
            RssExperiment.Plan plan = new RssExperiment.Plan(check(connections, base.connections(), 1, 1000, "--connections"),
                    check(engines, base.engines(), 1, 64, "--engines"), base.steerings(), base.moderated(),
                    ExperimentOptions.range(spec, seconds, base.seconds(), 0.05, 600, "--seconds"), base.size());
            Path dir = options.dir("rss");
            PrintWriter pw = spec.commandLine().getOut();
            pw.printf(Locale.ROOT, "jwarp experiment rss (%s): connections %s, engine threads %s, %.2f s per point%n",
                    options.mode(), plan.connections(), plan.engines(), plan.seconds());
            pw.printf(Locale.ROOT, " %-34s %11s %8s %12s %12s %10s%n", "series", "connections", "Gb/s", "wake-ups/s",
                    "FPDUs/wake", "ns CPU/KiB");
            pw.flush();
            List<RssExperiment.Result> results;
            try (ExperimentProgress bar = new ExperimentProgress(pw, plan.points().size())) {
                results = RssExperiment.run(plan, r -> bar.point(String.format(Locale.ROOT,
                        " %-34s %11d %8.2f %12.0f %12.1f %10.0f", RssReport.series(r.point()), r.point().connections(),
                        r.gbps(), r.wakeupsPerSecond(), r.fpdusPerWakeup(), r.cpuNsPerKiB())));
            }
            List<String> notes = new ArrayList<>();
            notes.add(Runtime.getRuntime().availableProcessors() + " CPUs; engine threads not pinned; both devices and "
                    + "the client thread in one JVM");
            List<Path> files = RssReport.write(dir, plan, results, options.mode(), notes);
            pw.println("wrote " + files.size() + " files to " + dir);
            pw.flush();
            return 0;
        }

        private List<Integer> check(List<Integer> given, List<Integer> dflt, int min, int max, String name) {
            if (given == null) {
                return dflt;
            }
            for (int v : given) {
                if (v < min || v > max) {
                    throw new ParameterException(spec.commandLine(), name + " takes values from " + min + " to " + max
                            + ", not " + v);
                }
            }
            return List.copyOf(given);
        }
    }
}
