package org.jwarp.cli;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import org.jwarp.degen.testbed.Testbed;
import org.jwarp.degen.testbed.TestbedException;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/**
 * The options every experiment has (a picocli mixin: {@code --quick}, {@code --out}), the mixins of
 * the options some share ({@link Where}, {@link Repeats}, {@link Placement}), and the checks of the
 * others; each bad value is one line naming the option.
 */
final class ExperimentOptions {

    /** Largest message size an experiment takes (perftest's largest {@code -a} size). */
    static final int MAX_SIZE = 1 << 23;

    @Option(names = "--quick", description = "The quick plan, under 2 minutes (what it runs: see above); without it the "
            + "full plan.")
    boolean quick;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default results/NAME-TIMESTAMP).")
    Path out;

    @Spec(Spec.Target.MIXEE)
    CommandSpec spec;

    /** {@code quick} or {@code full}, as results.json names the mode. */
    String mode() {
        return quick ? "quick" : "full";
    }

    /**
     * {@code --out}, or {@code results/NAME-TIMESTAMP}, made here: a directory that cannot be made
     * is refused before the experiment runs.
     */
    Path dir(String name) {
        Path dir = out != null ? out : ExperimentProcesses.defaultDir(name);
        String problem = OutputPath.makeDirectory(dir);
        if (problem != null) {
            throw new ParameterException(spec.commandLine(), (out != null ? "--out " : "the output directory ") + dir
                    + ": " + problem);
        }
        return dir;
    }

    /** {@code --where}: whether an experiment's delay sweep between degen's testbed hosts runs. */
    static final class Where {
        @Spec(Spec.Target.MIXEE)
        CommandSpec spec;

        @Option(names = "--where", paramLabel = "PLACE", defaultValue = "auto", description = "loopback (no delay "
                + "sweep), both, or auto: the delay sweep between degen's testbed hosts too when running as root "
                + "(default: ${DEFAULT-VALUE}).")
        String where;

        /** Whether the delay sweep runs ({@code both}, or {@code auto} as root); {@code auto} without root notes why not. */
        boolean delaySweep(List<String> notes) {
            return switch (where.toLowerCase(Locale.ROOT)) {
                case "loopback" -> false;
                case "both" -> true;
                case "auto" -> testbedPossible(notes, "delay sweep");
                default -> throw new ParameterException(spec.commandLine(), "--where takes loopback, both or auto, "
                        + "not '" + where + "'");
            };
        }
    }

    /** {@code --repeats}: runs per point instead of the mode's, 1 to 100. */
    static final class Repeats {
        @Spec(Spec.Target.MIXEE)
        CommandSpec spec;

        @Option(names = "--repeats", paramLabel = "N", description = "Runs per point instead of the mode's.")
        Integer repeats;

        /** {@code --repeats} if given, else the mode's {@code dflt}. */
        int orElse(int dflt) {
            return repeats == null ? dflt : range(spec, repeats, 1, 100, "--repeats").intValue();
        }
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

    /** Whether this process may bring up the testbed (root); if not, notes that {@code what} was skipped and why. */
    static boolean testbedPossible(List<String> notes, String what) {
        try {
            Testbed.requireCapable();
            return true;
        } catch (TestbedException e) {
            notes.add(what + " skipped: " + e.getMessage());
            return false;
        }
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

    /** One number given for {@code option}, or {@code dflt} if not given; checked to lie in {@code min..max}. */
    static <T extends Number> T range(CommandSpec spec, T given, T dflt, double min, double max, String option) {
        return given == null ? dflt : range(spec, given, min, max, option);
    }

    private static <T extends Number> T range(CommandSpec spec, T v, double min, double max, String option) {
        if (!(v.doubleValue() >= min && v.doubleValue() <= max)) {
            throw new ParameterException(spec.commandLine(), option + " must be " + format(min) + " to " + format(max)
                    + ", not " + v);
        }
        return v;
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
}
