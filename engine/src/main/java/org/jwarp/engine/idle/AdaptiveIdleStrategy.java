package org.jwarp.engine.idle;

import org.jwarp.sys.NanoClock;

/**
 * Spins while the thread has been idle for less than {@code spinNanos}, then parks for up to
 * {@code parkNanos} at a time. A burst of traffic finds the thread awake (no wake-up on the path),
 * an idle thread costs no CPU; parked on the engine's doorbell, which sleeps in the engine's
 * I/O driver, a post or a socket turning readable ends the park at once. Unlike
 * {@link BackoffIdleStrategy} it never takes a short plain park, which sees neither.
 *
 * <p>Owned by one thread; allocates nothing. The clock is read when the thread goes idle and
 * then once per {@value #SPINS_PER_CLOCK_READ} spins, so that a spin of cycles that take
 * microseconds each (a readiness check, reads of many connections) does not outlast its time.
 */
public final class AdaptiveIdleStrategy implements IdleStrategy {

    static final int SPINS_PER_CLOCK_READ = 8;

    private final Parker parker;
    private final long spinNanos;
    private final long parkNanos;
    private final NanoClock clock;

    private long idleSince;
    private int spins;

    /**
     * @param parker    how to park (the engine's doorbell)
     * @param spinNanos how long to spin after the last work, >= 0
     * @param parkNanos the longest park, > 0 (timers polled from the duty cycle still run)
     */
    public AdaptiveIdleStrategy(Parker parker, long spinNanos, long parkNanos) {
        this(parker, spinNanos, parkNanos, NanoClock.SYSTEM);
    }

    /** As above, on {@code clock} (tests; DESIGN rule 7). */
    public AdaptiveIdleStrategy(Parker parker, long spinNanos, long parkNanos, NanoClock clock) {
        if (parker == null || clock == null) {
            throw new IllegalArgumentException("parker and clock must not be null");
        }
        if (spinNanos < 0 || parkNanos <= 0) {
            throw new IllegalArgumentException("adaptive idle needs spin >= 0 and park > 0 ns: " + spinNanos + ", "
                    + parkNanos);
        }
        this.parker = parker;
        this.spinNanos = spinNanos;
        this.parkNanos = parkNanos;
        this.clock = clock;
        reset();
    }

    @Override
    public void idle(int workCount) {
        if (workCount > 0) {
            reset();
            return;
        }
        if (idleSince == Long.MIN_VALUE) {
            idleSince = clock.nanoTime();           // the spin is timed from the first idle cycle
        }
        if (spins < SPINS_PER_CLOCK_READ) {
            spins++;
            Thread.onSpinWait();
            return;
        }
        spins = 0;
        long now = clock.nanoTime();
        if (now - idleSince < spinNanos) {
            Thread.onSpinWait();
        } else {
            parker.park(parkNanos);
        }
    }

    /** Work that was setup steps only: the spin time goes on from where it was, or is over. */
    @Override
    public void setupWorked() {
        spins = 0;
        if (idleSince == Long.MIN_VALUE) {
            idleSince = clock.nanoTime() - spinNanos;
        }
    }

    @Override
    public void reset() {
        idleSince = Long.MIN_VALUE;
        spins = 0;
    }

    @Override
    public String alias() {
        return "adaptive";
    }

    @Override
    public String toString() {
        return "AdaptiveIdleStrategy{spin=" + spinNanos + "ns, park=" + parkNanos + "ns}";
    }
}
