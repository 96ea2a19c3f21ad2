package org.jwarp.engine.ring;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import org.jwarp.engine.idle.BackoffIdleStrategy;
import org.jwarp.engine.idle.IdleStrategy;
import org.jwarp.engine.idle.Parker;
import org.jwarp.engine.provider.JwarpConfig.Backoff;

/**
 * Runs a few test threads together, records the first failure of any of them and makes the
 * others give up (so that no thread is left spinning), and joins them with a deadline.
 */
final class ThreadHarness {

    /** A test thread body; it must return when {@link #aborted()} becomes true. */
    interface Body {
        void run() throws Exception;
    }

    private final AtomicBoolean abort = new AtomicBoolean();
    private final AtomicReference<Throwable> failure = new AtomicReference<>();
    private final List<Thread> threads = new ArrayList<>();

    /**
     * An idle strategy for full/empty rings in tests: a few spins and yields, then short parks, so
     * that three test threads on two cores never starve each other.
     */
    static IdleStrategy idle() {
        return new BackoffIdleStrategy(Parker.PLAIN, new Backoff(50, 10, 1_000, 20_000));
    }

    boolean aborted() {
        return abort.get();
    }

    void start(String name, Body body) {
        Thread t = new Thread(() -> {
            try {
                body.run();
            } catch (Throwable e) {
                failure.compareAndSet(null, e);
                abort.set(true);
            }
        }, name);
        t.setDaemon(true);
        threads.add(t);
        t.start();
    }

    /** Joins every thread within {@code millis}; rethrows the first failure. */
    void join(long millis) throws Throwable {
        long deadline = System.nanoTime() + millis * 1_000_000L;
        for (Thread t : threads) {
            long left = Math.max(1, (deadline - System.nanoTime()) / 1_000_000L);
            t.join(left);
            if (t.isAlive()) {
                abort.set(true);
                t.join(1_000);
                throw new AssertionError(t.getName() + " did not finish within " + millis + " ms", failure.get());
            }
        }
        Throwable f = failure.get();
        if (f != null) {
            throw f;
        }
    }
}
