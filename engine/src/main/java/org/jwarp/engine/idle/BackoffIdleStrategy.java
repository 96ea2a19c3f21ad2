package org.jwarp.engine.idle;

import org.jwarp.engine.provider.JwarpConfig.Backoff;

/**
 * Spins, then yields, then parks with exponentially growing times, as Agrona's
 * {@code BackoffIdleStrategy}: {@code maxSpins} {@link Thread#onSpinWait()} steps, then
 * {@code maxYields} {@link Thread#yield()} steps, then parks of {@code minParkNanos},
 * {@code 2 * minParkNanos}, ... capped at {@code maxParkNanos}. Any cycle that did work starts the
 * sequence over. A short burst of idleness therefore costs no wake-up, and a long one costs
 * little CPU; the park is ended early by an unpark (the doorbell).
 *
 * <p>Owned by one thread; allocates nothing.
 */
public final class BackoffIdleStrategy implements IdleStrategy {

    private final Parker parker;
    private final long maxSpins;
    private final long maxYields;
    private final long minParkNanos;
    private final long maxParkNanos;

    private long spins;
    private long yields;
    private long parkNanos;

    /**
     * @param parker  how to park (the engine's doorbell, or {@link Parker#PLAIN})
     * @param backoff the spin and yield counts and the park range
     */
    public BackoffIdleStrategy(Parker parker, Backoff backoff) {
        if (parker == null || backoff == null) {
            throw new IllegalArgumentException("parker and backoff must not be null");
        }
        this.parker = parker;
        this.maxSpins = backoff.maxSpins();
        this.maxYields = backoff.maxYields();
        this.minParkNanos = backoff.minParkNanos();
        this.maxParkNanos = backoff.maxParkNanos();
        reset();
    }

    @Override
    public void idle(int workCount) {
        if (workCount > 0) {
            reset();
            return;
        }
        if (spins < maxSpins) {
            spins++;
            Thread.onSpinWait();
        } else if (yields < maxYields) {
            yields++;
            Thread.yield();
        } else {
            parker.park(parkNanos);
            parkNanos = Math.min(parkNanos << 1, maxParkNanos);
        }
    }

    @Override
    public void reset() {
        spins = 0;
        yields = 0;
        parkNanos = minParkNanos;
    }

    @Override
    public String alias() {
        return "backoff";
    }

    @Override
    public String toString() {
        return "BackoffIdleStrategy{spins=" + maxSpins + ", yields=" + maxYields + ", park=" + minParkNanos + ".."
                + maxParkNanos + "ns}";
    }
}
