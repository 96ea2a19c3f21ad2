package org.jwarp.cli;

import java.nio.file.Path;
import java.util.List;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * The options the experiments share: where they run and where they write (a picocli mixin), and
 * the checks of the others; each bad value is one line naming the option.
 */
final class ExperimentOptions {

    /** Largest message size an experiment takes (perftest's largest {@code -a} size). */
    static final int MAX_SIZE = 1 << 23;

    @Option(names = "--where", paramLabel = "PLACE", defaultValue = "auto", description = "loopback (no delay sweep), "
            + "both, or auto: the delay sweep between degen's testbed hosts too when running as root "
            + "(default: ${DEFAULT-VALUE}).")
    String where;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default results/NAME-TIMESTAMP).")
    Path out;

    /** {@code --out}, or {@code results/NAME-TIMESTAMP}. */
    Path dir(String name) {
        return out != null ? out : ExperimentProcesses.defaultDir(name);
    }

    /**
     * {@code given} if set, each value checked to lie in {@code min..max}; else {@code dflt}.
     *
     * @throws ParameterException one line naming the option and the bad value
     */
    static <T extends Number> List<T> check(CommandSpec spec, List<T> given, List<T> dflt, double min, double max,
                                            String option, String unit) {
        if (given == null) {
            return dflt;
        }
        for (T v : given) {
            if (!(v.doubleValue() >= min && v.doubleValue() <= max)) {
                throw new ParameterException(spec.commandLine(), option + " takes " + format(min) + " to " + format(max)
                        + " " + unit + ", not " + v);
            }
        }
        return List.copyOf(given);
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

    private static String format(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }

    /** Whether the measured application thread gets a CPU of its own: {@code --placement}. */
    static final class Placement {
        @Option(names = "--placement", paramLabel = "HOW", defaultValue = "pinned", description = "pinned: the measured "
                + "application thread on a CPU of its own, every other thread of the run on the others (the paper's "
                + "host CPU beside its RNIC); free: the kernel places every thread (default: ${DEFAULT-VALUE}).")
        String placement;

        boolean pinned(CommandSpec spec) {
            return switch (placement) {
                case "pinned" -> true;
                case "free" -> false;
                default -> throw new ParameterException(spec.commandLine(), "--placement takes pinned or free, not '"
                        + placement + "'");
            };
        }
    }
}
