package org.jwarp.bench.experiment;

import java.util.Arrays;
import java.util.Optional;
import org.jwarp.engine.affinity.Cpus;
import org.jwarp.engine.affinity.ThreadAffinity;

/**
 * Where an experiment's measured application thread runs: on a CPU of its own (the highest the
 * process may use), with every other thread of every process of the run (engine threads, the peer
 * processes, the background clients) kept on the remaining CPUs. The paper's host CPU and its
 * RNIC's processor are then two things, as they were on the Ammasso card, and what the measured
 * thread loses to communication is what its own CPU did for it. Nothing is pinned where the
 * process has fewer than two CPUs or affinity calls are unavailable.
 */
public final class ApplicationCpu {

    /** The CPUs the process could use before {@link #leave()} narrowed them; empty if pinning is not possible. */
    private static final Optional<int[]> CPUS = ThreadAffinity.isSupported()
            ? ThreadAffinity.getAffinity().map(Cpus::toArray).filter(a -> a.length >= 2) : Optional.empty();

    private ApplicationCpu() {
    }

    private static Optional<int[]> cpus() {
        return CPUS;
    }

    /** Whether {@link #take()} and {@link #leave()} pin anything here. */
    public static boolean possible() {
        return cpus().isPresent();
    }

    /**
     * Restricts the calling thread, and so every thread it starts afterwards (a device's engine
     * threads), to the CPUs other than the application's.
     */
    public static void leave() {
        cpus().ifPresent(c -> ThreadAffinity.setAffinity(Cpus.of(Arrays.copyOf(c, c.length - 1))));
    }

    /** Pins the calling thread to the application's CPU. */
    public static void take() {
        cpus().ifPresent(c -> ThreadAffinity.pinCurrentThread(c[c.length - 1]));
    }

    /** One line for a README: where the threads ran. */
    public static String describe(boolean pinned) {
        Optional<int[]> c = cpus();
        if (!pinned || c.isEmpty()) {
            return Runtime.getRuntime().availableProcessors() + " CPUs; no thread pinned"
                    + (pinned ? " (" + (ThreadAffinity.isSupported() ? "fewer than 2 CPUs" : ThreadAffinity.unsupportedReason())
                    + ")" : "") + ": each process's threads go where the kernel puts them";
        }
        int[] a = c.get();
        return a.length + " CPUs; the measured application thread pinned to CPU " + a[a.length - 1] + "; every other "
                + "thread of every process of the run (engine threads, peers, background clients) on CPUs "
                + Cpus.of(Arrays.copyOf(a, a.length - 1)) + "; the kernel's network processing and degen's router "
                + "where the kernel puts them";
    }
}
