package org.jwarp.bench.experiment;

import java.io.PrintStream;
import java.util.Arrays;

/**
 * What the experiments' side processes ({@link ProgressSide}, {@link OverlapSide},
 * {@link CpuImpactSide}, {@link RendezvousSide}) share: a {@code main} whose outcome is the exit
 * status (the experiment command reads a side's output, so a failure is printed there, with its
 * stack trace), and the one way their timings are summarised.
 */
final class SideProcess {

    /** A side's work, printing to {@code out} (the experiment command reads it). */
    @FunctionalInterface
    interface Body {
        void run(PrintStream out) throws Exception;
    }

    private SideProcess() {
    }

    /** Runs {@code body}; exits 0, or prints why it failed with the stack trace and exits 1. */
    static void main(String name, Body body) {
        try {
            body.run(System.out);
            System.out.flush();
            System.exit(0);
        } catch (Throwable t) {
            System.out.println(name + " failed: " + t);
            t.printStackTrace(System.out);
            System.out.flush();
            System.exit(1);
        }
    }

    /** The median, 99th percentile and minimum of a side's timings, in µs. */
    record Times(double medianUs, double p99Us, double minUs) {

        /** Of {@code ns} (sorted here). */
        static Times of(long[] ns) {
            Arrays.sort(ns);
            return new Times(ns[ns.length / 2] / 1e3, ns[Math.min(ns.length - 1, (int) (ns.length * 0.99))] / 1e3,
                    ns[0] / 1e3);
        }
    }
}
