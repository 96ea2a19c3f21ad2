package org.jwarp.engine.testing;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.jwarp.sys.NanoClock;

/** A {@link NanoClock} that moves only when a test says so (docs/design.md rule 7). Thread-safe. */
public final class FakeNanoClock implements NanoClock {

    private final AtomicLong now;

    /** Starts at {@code start} ns (any value: code must only use differences). */
    public FakeNanoClock(long start) {
        now = new AtomicLong(start);
    }

    @Override
    public long nanoTime() {
        return now.get();
    }

    /** Moves the clock forward by {@code amount} {@code unit}s; returns the new time. */
    public long advance(long amount, TimeUnit unit) {
        return now.addAndGet(unit.toNanos(amount));
    }
}
