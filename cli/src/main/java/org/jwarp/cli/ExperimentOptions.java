package org.jwarp.cli;

import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParameterException;

/** The checks of the options the experiment commands share: each bad value is one line naming the option. */
final class ExperimentOptions {

    /** Largest message size an experiment takes (perftest's largest {@code -a} size). */
    static final int MAX_SIZE = 1 << 23;

    private ExperimentOptions() {
    }

    /** {@code --repeats}: 1 to 50, or not given. */
    static void repeats(CommandSpec spec, Integer repeats) {
        if (repeats != null && (repeats < 1 || repeats > 50)) {
            throw new ParameterException(spec.commandLine(), "--repeats must be 1 to 50, not " + repeats);
        }
    }

    /** A list of message sizes (1 to 8 MiB), or {@code dflt} if not given. */
    static List<Integer> sizes(CommandSpec spec, String option, List<Integer> given, List<Integer> dflt) {
        if (given == null) {
            return dflt;
        }
        for (int sz : given) {
            if (sz < 1 || sz > MAX_SIZE) {
                throw new ParameterException(spec.commandLine(), option + " takes sizes of 1 to " + MAX_SIZE
                        + " bytes, not " + sz);
            }
        }
        return List.copyOf(given);
    }
}
