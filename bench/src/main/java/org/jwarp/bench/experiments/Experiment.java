package org.jwarp.bench.experiments;

/**
 * One of the papers' experiments, as the tools that list, run and report them know it: its name
 * (the subcommand of {@code jwarp experiment}), the schema of its results, the line that lists it,
 * the paper's question and finding, and its verdict on a run. {@link Experiments} holds them all.
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
}
