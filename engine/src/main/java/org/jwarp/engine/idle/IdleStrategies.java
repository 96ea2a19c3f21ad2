package org.jwarp.engine.idle;

import org.jwarp.engine.provider.JwarpConfig.Backoff;
import org.jwarp.engine.provider.JwarpConfig.IdleStrategyKind;
import org.jwarp.engine.provider.JwarpConfig;

/** Builds the {@link IdleStrategy} a {@link JwarpConfig} asks for. */
public final class IdleStrategies {

    private IdleStrategies() {
    }

    /**
     * The strategy of {@code kind}. {@link IdleStrategyKind#PARK} parks for at most
     * {@code backoff.maxParkNanos()} at a time (as does {@link IdleStrategyKind#ADAPTIVE} once it
     * stops spinning), so that timers polled from the duty cycle still run
     * while nothing rings the doorbell.
     *
     * @param parker how parks are done: the engine thread's doorbell, so that posts can wake it
     */
    public static IdleStrategy create(IdleStrategyKind kind, Backoff backoff, Parker parker) {
        if (kind == null || backoff == null || parker == null) {
            throw new IllegalArgumentException("kind, backoff and parker must not be null");
        }
        return switch (kind) {
            case SPIN -> BusySpinIdleStrategy.INSTANCE;
            case BACKOFF -> new BackoffIdleStrategy(parker, backoff);
            case PARK -> new ParkIdleStrategy(parker, backoff.maxParkNanos());
            case ADAPTIVE -> new AdaptiveIdleStrategy(parker, JwarpConfig.ADAPTIVE_SPIN_NANOS, backoff.maxParkNanos());
        };
    }

    /**
     * An engine thread's sleep when {@link IdleStrategyKind#ADAPTIVE} stops spinning: until a post,
     * a socket or the next timer wakes it (the {@code parker} must bound the park by the engine's
     * deadlines, {@link DeadlineParker}), and no longer than this, so that an idle engine does not
     * wake every {@code maxParkNanos} for nothing.
     */
    public static final long ENGINE_SLEEP_NANOS = 1_000_000_000L;

    /**
     * As {@link #create(JwarpConfig, Parker)}, for a dedicated engine thread, the only thread
     * that sleeps in its I/O driver: {@link IdleStrategyKind#ADAPTIVE} sleeps up to
     * {@link #ENGINE_SLEEP_NANOS} at a time, {@code parker} cutting it short for a timer.
     */
    public static IdleStrategy forEngine(JwarpConfig config, DeadlineParker parker) {
        return engineLike(config, parker, JwarpConfig.ADAPTIVE_SPIN_NANOS);
    }

    /**
     * As {@link #forEngine}, without the spin: {@link IdleStrategyKind#ADAPTIVE} sleeps in the
     * driver at once. For an application thread that holds the engine while it blocks (HYBRID
     * mode's waits, where CPUs are few) while another application thread calls in: the spin would
     * take the CPU from that thread, whose work it may be waiting for.
     */
    public static IdleStrategy forWaiter(JwarpConfig config, DeadlineParker parker) {
        return engineLike(config, parker, 0);
    }

    /** {@link IdleStrategyKind#ADAPTIVE}: spins {@code spinNanos}, then sleeps up to {@link #ENGINE_SLEEP_NANOS}. */
    private static IdleStrategy engineLike(JwarpConfig config, DeadlineParker parker, long spinNanos) {
        if (config.idleStrategy() == IdleStrategyKind.ADAPTIVE) {
            return new AdaptiveIdleStrategy(parker, spinNanos, ENGINE_SLEEP_NANOS);
        }
        return create(config, parker);
    }

    /** {@code create(config.idleStrategy(), config.backoff(), parker)}. */
    public static IdleStrategy create(JwarpConfig config, Parker parker) {
        return create(config.idleStrategy(), config.backoff(), parker);
    }
}
