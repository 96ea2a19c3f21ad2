package org.jwarp.bench.experiment;

import java.util.Arrays;
import java.util.Locale;

/**
 * What the experiments' side processes ({@link ProgressSide}, {@link RendezvousSide}) share: a main
 * whose outcome is the exit status (the experiment reads the output of a side that failed), and the
 * one way their timings are summarised.
 */
final class SideProcess {

    /** A side's work. */
    @FunctionalInterface
    interface Body {
        void run() throws Exception;
    }

    private SideProcess() {
    }

    /** Runs {@code body}; exits 0, or prints why it failed with the stack trace and exits 1. */
    static void main(String name, Body body) {
        try {
            body.run();
            System.out.flush();
            System.exit(0);
        } catch (Throwable t) {
            System.out.println(name + " failed: " + t);
            t.printStackTrace(System.out);
            System.exit(1);
        }
    }

    /** {@code median_us=... p99_us=... min_us=...} of {@code ns} (sorted here). */
    static String summary(long[] ns) {
        Arrays.sort(ns);
        return String.format(Locale.ROOT, "median_us=%.3f p99_us=%.3f min_us=%.3f", ns[ns.length / 2] / 1e3,
                ns[Math.min(ns.length - 1, (int) (ns.length * 0.99))] / 1e3, ns[0] / 1e3);
    }
}
