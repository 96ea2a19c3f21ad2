package org.jwarp.bench.experiment;

/**
 * The papers' "dummy loop": an application busy on its CPU without touching the network. The
 * result is threaded through the callers so that the JIT cannot drop the loop.
 */
public final class DummyLoop {

    private DummyLoop() {
    }

    /** Spins for {@code ms} of wall-clock time. */
    public static long spin(double ms, long sink) {
        long until = System.nanoTime() + (long) (ms * 1e6);
        long x = sink;
        do {
            x = step(x);
        } while (System.nanoTime() - until < 0);
        return x;
    }

    /** A fixed amount of work, {@code units} rounds of integer and floating-point arithmetic. */
    public static long work(long units, long sink) {
        long x = sink;
        double y = 1.0;
        for (long u = 0; u < units; u++) {
            for (int i = 0; i < 256; i++) {
                x = step(x);
                y = y * 1.0000001 + Math.sqrt((double) (x & 0xFFFF));
            }
        }
        return x ^ (long) y;
    }

    private static long step(long x) {
        return x * 6364136223846793005L + 1442695040888963407L;
    }
}
