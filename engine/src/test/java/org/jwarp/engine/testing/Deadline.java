package org.jwarp.engine.testing;

import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;

/**
 * Waits for a condition another thread makes true, with a deadline (docs/design.md rule 7: no sleeping
 * and hoping): polls it every 10 µs, so that a waiting test thread does not starve the thread it
 * waits for on a 2-core machine.
 */
public final class Deadline {

    private Deadline() {
    }

    /**
     * Returns once {@code condition} holds.
     *
     * @throws AssertionError naming {@code what} if it does not hold within {@code timeoutMillis}
     */
    public static void await(String what, long timeoutMillis, BooleanSupplier condition) {
        long deadline = System.nanoTime() + timeoutMillis * 1_000_000L;
        while (!condition.getAsBoolean()) {
            if (System.nanoTime() - deadline > 0) {
                throw new AssertionError("timed out after " + timeoutMillis + " ms waiting for " + what);
            }
            LockSupport.parkNanos(10_000);           // a polling interval, not a guess at how long the event takes
        }
    }
}
