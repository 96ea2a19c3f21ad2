package org.jwarp.engine.idle;

import java.util.function.LongSupplier;

/**
 * A {@link Parker} that never parks past the engine's next timer deadline: an engine whose timers
 * are polled from its duty cycle (moderation periods, MPA timeouts) parks for
 * {@code min(requested, nanosToNextDeadline)} instead of overshooting a 100 µs moderation period
 * by a 1 ms backoff park. A deadline already due skips the park.
 *
 * <p>Wrap the engine's doorbell: {@code new DeadlineParker(doorbell, notifier::nanosToNextDeadline)},
 * so that posts still wake the engine.
 */
public final class DeadlineParker implements Parker {

    private final Parker inner;
    private final LongSupplier nanosToNextDeadline;

    /**
     * @param inner               how to park (the engine's doorbell)
     * @param nanosToNextDeadline ns until the earliest timer deadline: {@code Long.MAX_VALUE} if
     *                            none, {@code <= 0} if one is due; must not allocate
     */
    public DeadlineParker(Parker inner, LongSupplier nanosToNextDeadline) {
        if (inner == null || nanosToNextDeadline == null) {
            throw new IllegalArgumentException("inner parker and deadline source must not be null");
        }
        this.inner = inner;
        this.nanosToNextDeadline = nanosToNextDeadline;
    }

    @Override
    public void park(long nanos) {
        long bound = Math.min(nanos, nanosToNextDeadline.getAsLong());
        if (bound > 0) {
            inner.park(bound);
        }
    }
}
