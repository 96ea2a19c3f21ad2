package org.jwarp.bench.scale;

import java.io.IOException;
import java.time.Duration;
import org.jwarp.bench.perf.SideReport;

/**
 * The warm-up of {@code jwarp bench}'s setup lines: rounds of the measured runs (jwarp and the
 * sockets baseline, serially and with a window in flight, as many connections as a measured run
 * makes) until both processes are in steady state, so that the figures are the stacks' cost and
 * not the JIT compilers'. A round is steady when neither process's JIT compilers ran for more than
 * {@link #STEADY_SHARE} of its wall time; the warm-up ends after {@link #STEADY_ROUNDS} steady
 * rounds in a row, or at {@code limit}.
 */
public final class SetupWarmUp {

    /** The most CPU time either process's JIT compiler threads use in a steady round, as a share of its wall time. */
    static final double STEADY_SHARE = 0.10;
    /** Steady rounds in a row that end the warm-up. */
    static final int STEADY_ROUNDS = 2;

    /** What the warm-up took: its rounds, its wall time, and whether it reached steady state. */
    public record Result(int rounds, double seconds, boolean steady) {
    }

    private SetupWarmUp() {
    }

    /**
     * Warms both processes up through {@code rate}.
     *
     * @param serial   connections of a serial round
     * @param inFlight connections of a round with {@code window} in flight
     * @param limit    the longest warm-up
     */
    public static Result run(SetupRate rate, int serial, int inFlight, int window, Duration limit)
            throws InterruptedException, IOException {
        long start = System.nanoTime();
        long end = start + limit.toNanos();
        int rounds = 0;
        int steady = 0;
        while (steady < STEADY_ROUNDS && System.nanoTime() - end < 0) {
            long client = SideReport.compiledMillis();
            long server = rate.serverCompiledMillis();
            long t0 = System.nanoTime();
            rate.jwarp(serial, 1);
            rate.sockets(serial, 1);
            rate.jwarp(inFlight, window);
            rate.sockets(inFlight, window);
            double most = STEADY_SHARE * (System.nanoTime() - t0) / 1e6;
            boolean quiet = SideReport.compiledMillis() - client <= most
                    && rate.serverCompiledMillis() - server <= most;
            steady = quiet ? steady + 1 : 0;
            rounds++;
        }
        return new Result(rounds, (System.nanoTime() - start) / 1e9, steady >= STEADY_ROUNDS);
    }
}
