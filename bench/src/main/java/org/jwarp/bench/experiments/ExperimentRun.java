package org.jwarp.bench.experiments;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Supplier;
import org.jwarp.degen.testbed.Testbed;
import org.jwarp.degen.testbed.TestbedException;

/**
 * One run of an experiment as its command asked for it: the mode ({@code --quick} or not), the
 * values of the experiment's options ({@link Experiment#options()}) with their checks, where its
 * lines go, its output directory, and the {@code jwarp} command its points may run. A bad value is
 * a {@link BadOption} of one line naming the option.
 */
public final class ExperimentRun {

    /** Largest message size an experiment takes (perftest's largest {@code -a} size). */
    public static final int MAX_SIZE = 1 << 23;

    /** A bad option value: one line, naming the option; the command shows it as a usage error. */
    public static final class BadOption extends IllegalArgumentException {
        public BadOption(String message) {
            super(message);
        }
    }

    private final boolean quick;
    private final Map<String, Object> options;
    private final PrintWriter out;
    private final Supplier<Path> directory;
    private final JwarpTool jwarp;
    private Path dir;

    /**
     * @param options   the values of the experiment's options by name, null for one not given
     * @param directory makes the output directory, or throws a {@link BadOption} why not; asked once,
     *                  when the run first needs it, so that bad options are refused first
     */
    public ExperimentRun(boolean quick, Map<String, Object> options, PrintWriter out, Supplier<Path> directory,
                         JwarpTool jwarp) {
        this.quick = quick;
        this.options = options;
        this.out = out;
        this.directory = directory;
        this.jwarp = jwarp;
    }

    /** Whether the quick plan runs. */
    public boolean quick() {
        return quick;
    }

    /** {@code quick} or {@code full}, as results.json names the mode. */
    public String mode() {
        return quick ? "quick" : "full";
    }

    /** Where the run's lines go. */
    public PrintWriter out() {
        return out;
    }

    /** The output directory, made on first use. */
    public Path dir() {
        if (dir == null) {
            dir = directory.get();
        }
        return dir;
    }

    /** The {@code jwarp} command, for points that run perf tests. */
    public JwarpTool jwarp() {
        return jwarp;
    }

    /** The value of option {@code name}, null if it was not given and has no default. */
    @SuppressWarnings("unchecked")
    public <T> T option(String name) {
        if (!options.containsKey(name)) {
            throw new IllegalArgumentException("the experiment has no option " + name);
        }
        return (T) options.get(name);
    }

    /** A {@link BadOption} saying {@code message}. */
    public BadOption bad(String message) {
        return new BadOption(message);
    }

    /** Option {@code name}'s values if given, each checked to lie in {@code min..max} {@code unit}; else {@code dflt}. */
    public <T extends Number> List<T> check(String name, List<T> dflt, double min, double max, String unit) {
        List<T> given = option(name);
        if (given == null) {
            return dflt;
        }
        for (T v : given) {
            within(name, v, min, max, unit);
        }
        return List.copyOf(given);
    }

    /** Option {@code name}'s one value if given, checked as {@link #check} checks each; else {@code dflt}. */
    public <T extends Number> T checkOne(String name, T dflt, double min, double max, String unit) {
        T v = option(name);
        return v == null ? dflt : within(name, v, min, max, unit);
    }

    private <T extends Number> T within(String name, T v, double min, double max, String unit) {
        if (!(v.doubleValue() >= min && v.doubleValue() <= max)) {
            throw bad(name + " takes " + format(min) + " to " + format(max) + " " + unit + ", not " + v);
        }
        return v;
    }

    /** Option {@code name}'s one value if given, checked to lie in {@code min..max}; else {@code dflt}. */
    public <T extends Number> T range(String name, T dflt, double min, double max) {
        T v = option(name);
        if (v == null) {
            return dflt;
        }
        if (!(v.doubleValue() >= min && v.doubleValue() <= max)) {
            throw bad(name + " must be " + format(min) + " to " + format(max) + ", not " + v);
        }
        return v;
    }

    /** Message sizes (1 to 8 MiB) of option {@code name}, or {@code dflt} if not given. */
    public List<Integer> sizes(String name, List<Integer> dflt) {
        List<Integer> given = option(name);
        if (given == null) {
            return dflt;
        }
        for (int sz : given) {
            if (sz < 1 || sz > MAX_SIZE) {
                throw bad(name + " takes sizes of 1 to " + MAX_SIZE + " bytes, not " + sz);
            }
        }
        return List.copyOf(given);
    }

    /** {@link ExperimentOption#REPEATS} if given (1 to 100), else the mode's {@code dflt}. */
    public int repeats(int dflt) {
        return range(ExperimentOption.REPEATS.name(), dflt, 1, 100);
    }

    /**
     * Whether the delay sweep runs ({@link ExperimentOption#WHERE}: {@code both}, or {@code auto}
     * as root); {@code auto} without root notes why not.
     */
    public boolean delaySweep(List<String> notes) {
        String where = option(ExperimentOption.WHERE.name());
        return switch (where.toLowerCase(Locale.ROOT)) {
            case "loopback" -> false;
            case "both" -> true;
            case "auto" -> testbedPossible(notes, "delay sweep");
            default -> throw bad("--where takes loopback, both or auto, not '" + where + "'");
        };
    }

    /** Whether the measured application thread gets a CPU of its own ({@link ExperimentOption#PLACEMENT}). */
    public boolean pinned() {
        String placement = option(ExperimentOption.PLACEMENT.name());
        return switch (placement) {
            case "pinned" -> true;
            case "free" -> false;
            default -> throw bad("--placement takes pinned or free, not '" + placement + "'");
        };
    }

    /** Whether this process may bring up the testbed (root); if not, notes that {@code what} was skipped and why. */
    public static boolean testbedPossible(List<String> notes, String what) {
        try {
            Testbed.requireCapable();
            return true;
        } catch (TestbedException e) {
            notes.add(what + " skipped: " + e.getMessage());
            return false;
        }
    }

    private static String format(double v) {
        return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
    }
}
