package org.jwarp.sys;

/**
 * A monotonic nanosecond clock, injected wherever something waits on time (docs/design.md rule 7), so
 * that moderation periods and timeouts are unit-tested with a fake clock instead of sleeps.
 */
@FunctionalInterface
public interface NanoClock {

    /** {@link System#nanoTime()}. */
    NanoClock SYSTEM = System::nanoTime;

    /** Monotonic time in ns; only differences are meaningful. */
    long nanoTime();
}
