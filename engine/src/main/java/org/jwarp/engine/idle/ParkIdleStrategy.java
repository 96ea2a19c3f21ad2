package org.jwarp.engine.idle;

/**
 * Parks at once whenever a cycle found no work: no CPU while idle, a wake-up (unpark, a few µs)
 * per hand-off. The park is bounded by {@code maxParkNanos} rather than indefinite because the
 * engine's timers (moderation periods, MPA timeouts, retransmit checks) are polled from its duty
 * cycle (seed 001: the offload engine's event loop also polls "an internal timer"); a doorbell or
 * any {@link java.util.concurrent.locks.LockSupport#unpark} ends the park early.
 */
public final class ParkIdleStrategy implements IdleStrategy {

    private final Parker parker;
    private final long parkNanos;

    /**
     * @param parker    how to park (the engine's doorbell, or {@link Parker#PLAIN})
     * @param parkNanos the longest park, > 0
     */
    public ParkIdleStrategy(Parker parker, long parkNanos) {
        if (parker == null) {
            throw new IllegalArgumentException("parker must not be null");
        }
        if (parkNanos <= 0) {
            throw new IllegalArgumentException("park time must be > 0 ns: " + parkNanos);
        }
        this.parker = parker;
        this.parkNanos = parkNanos;
    }

    @Override
    public void idle(int workCount) {
        if (workCount <= 0) {
            parker.park(parkNanos);
        }
    }

    @Override
    public void reset() {
    }

    /** The longest park, in ns. */
    public long parkNanos() {
        return parkNanos;
    }

    @Override
    public String alias() {
        return "park";
    }

    @Override
    public String toString() {
        return "ParkIdleStrategy{parkNanos=" + parkNanos + '}';
    }
}
