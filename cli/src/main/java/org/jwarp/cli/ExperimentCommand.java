package org.jwarp.cli;

import java.io.PrintWriter;
import java.util.concurrent.Callable;
import org.jwarp.bench.experiments.Experiment;
import org.jwarp.bench.experiments.Experiments;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Spec;
import picocli.CommandLine;

/**
 * {@code jwarp experiment}: the papers' experiments, each one command writing data, plots and a
 * README. The commands are made from the registry ({@link Experiments#ALL}, {@link ExperimentRunner}),
 * between {@code list} and {@code all}.
 */
@Command(name = "experiment", mixinStandardHelpOptions = true,
        description = "The seed papers' experiments: each writes results.csv, results.json, SVG plots and a README.md "
                + "into its output directory (default results/NAME-TIMESTAMP/).")
final class ExperimentCommand extends GroupCommand {

    /** Adds {@code list}, a command per registered experiment, and {@code all} to {@code experiment}. */
    static void addSubcommands(CommandLine experiment) {
        experiment.addSubcommand(new CommandLine(new ListExperiments()));
        for (Experiment e : Experiments.ALL) {
            experiment.addSubcommand(e.name(), ExperimentRunner.command(e));
        }
        experiment.addSubcommand(new CommandLine(new AllExperimentsCommand()));
    }

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
}
