package org.jwarp.bench.experiments;

import java.util.List;

/**
 * One option of an experiment's command beyond {@code --quick} and {@code --out}, declared by the
 * experiment and turned into a command-line option by the command that runs it: its name, the
 * label of its value, its type ({@code element} for a comma-separated list, else null), its
 * default (null: none, the run sees null when it is not given) and its help.
 */
public record ExperimentOption(String name, String paramLabel, Class<?> type, Class<?> element, String defaultValue,
                               String description) {

    /** {@code --where}: whether the delay sweep between degen's testbed hosts runs ({@link ExperimentRun#delaySweep}). */
    public static final ExperimentOption WHERE = new ExperimentOption("--where", "PLACE", String.class, null, "auto",
            "loopback (no delay sweep), both, or auto: the delay sweep between degen's testbed hosts too when running "
                    + "as root (default: ${DEFAULT-VALUE}).");

    /** {@code --repeats}: runs per point ({@link ExperimentRun#repeats}). */
    public static final ExperimentOption REPEATS = one("--repeats", "N", Integer.class, "Runs per point instead of the "
            + "mode's.");

    /** {@code --placement}: whether the measured application thread gets a CPU of its own ({@link ExperimentRun#pinned}). */
    public static final ExperimentOption PLACEMENT = new ExperimentOption("--placement", "HOW", String.class, null,
            "pinned", "pinned: the measured application thread on a CPU of its own, every other thread of the run on "
                    + "the others (the paper's host CPU beside its RNIC); free: the kernel places every thread (default: "
                    + "${DEFAULT-VALUE}).");

    /** {@code --sizes}: message sizes ({@link ExperimentRun#sizes}). */
    public static final ExperimentOption SIZES = list("--sizes", "BYTES,...", Integer.class, "Message sizes instead of "
            + "the mode's.");

    /** An option of one value, none by default. */
    public static ExperimentOption one(String name, String paramLabel, Class<?> type, String description) {
        return new ExperimentOption(name, paramLabel, type, null, null, description);
    }

    /** An option of comma-separated values of type {@code element}, none by default. */
    public static ExperimentOption list(String name, String paramLabel, Class<?> element, String description) {
        return new ExperimentOption(name, paramLabel, List.class, element, null, description);
    }
}
