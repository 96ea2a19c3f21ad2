package org.jwarp.bench.experiments;

import java.util.List;

/**
 * One of the papers' experiments, as the tools that list, run and report them know it: its name
 * (the subcommand of {@code jwarp experiment}), the schema of its results, the line that lists it,
 * the paper's question and finding, its verdict on a run, its command's help and options, and how
 * it runs. {@link Experiments} holds them all; the CLI makes each one's command from this.
 */
public interface Experiment {

    /** The name: {@code jwarp experiment NAME}, and the results' schema. */
    String name();

    /** The schema of its {@code results.json} (docs/json.md). */
    default String schema() {
        return "jwarp-experiment-" + name() + "/1";
    }

    /** One line for {@code jwarp experiment list}: the seed and figure, what it measures. */
    String description();

    /** What the paper asked and found. */
    Paper paper();

    /** Whether {@code run} reproduced the paper's finding, and on which numbers. */
    Verdict verdict(RunResult run);

    /** How the report names its own columns and parts, where the report's general rules do not. */
    default TableWords tableWords() {
        return TableWords.NONE;
    }

    /** The command's help, paragraph by paragraph: what it measures, where, and what the quick plan runs. */
    List<String> help();

    /** The command's options beyond {@code --quick} and {@code --out}, in the order its help lists them. */
    default List<ExperimentOption> options() {
        return List.of();
    }

    /**
     * Runs the plan that the mode and options give, a line per point on {@link ExperimentRun#out()},
     * and writes the result directory ({@link ExperimentRun#dir()}).
     *
     * @throws ExperimentRun.BadOption before anything runs, if an option's value is bad
     */
    void run(ExperimentRun run) throws Exception;
}
