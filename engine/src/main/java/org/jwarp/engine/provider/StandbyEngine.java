package org.jwarp.engine.provider;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.jwarp.engine.idle.IdleStrategy;

/**
 * HYBRID mode's engine thread ({@link org.jwarp.verbs.DeviceConfig.ThreadingMode#HYBRID}). While
 * application threads call into the device (poll, post), they run the duty cycle and this thread
 * only looks, now and then ({@link #HANDBACK_MIN_NANOS}), whether they still do; when a whole period passed
 * without one, or an application thread is about to block ({@link #handOver()}), it runs the duty
 * cycle itself, sleeping in the engine's selector between cycles that found no work, until an
 * application thread calls in again. So a polling application keeps one busy thread per process,
 * and a passive one still answers its peer.
 *
 * <p>Who runs a cycle is decided by the device's {@code invoking} flag: never two at once.
 */
final class StandbyEngine implements Runnable {

    /**
     * How long the application may go without calling in before this thread takes over: at first
     * {@code HANDBACK_MIN_NANOS}, doubling while the application keeps calling in, up to
     * {@code HANDBACK_MAX_NANOS}. Each look wakes this thread, and on a machine whose CPUs are all
     * busy polling a wake-up displaces a poller, so a busy application is looked at rarely; one
     * that blocks in a wait hands over at once ({@link #handOver()}).
     */
    static final long HANDBACK_MIN_NANOS = TimeUnit.MILLISECONDS.toNanos(16);
    static final long HANDBACK_MAX_NANOS = TimeUnit.MILLISECONDS.toNanos(64);

    private final JwarpDevice device;
    private final EngineThreads engines;
    private final IdleStrategy idle;
    private final Thread thread;
    private volatile boolean running = true;
    /** The application's invocation count at its last {@link #handOver()}; -1 for none. */
    private volatile long handedOverAt = -1;

    /**
     * @param idle how this thread idles while it runs the engine: parked on the engine's doorbell,
     *             in its selector
     */
    StandbyEngine(JwarpDevice device, EngineThreads engines, IdleStrategy idle) {
        this.device = device;
        this.engines = engines;
        this.idle = idle;
        this.thread = Thread.ofPlatform().daemon().name("jwarp-engine-standby-" + device.index()).unstarted(this);
    }

    void start() {
        thread.start();
    }

    Thread thread() {
        return thread;
    }

    /**
     * An application thread is about to block without calling in (a channel wait, a CM wait): this
     * thread takes the engine now rather than after a period.
     */
    void handOver() {
        handedOverAt = engines.invocations();
        LockSupport.unpark(thread);
        engines.wakeEngine();
    }

    @Override
    public void run() {
        try {
            standBy();
        } catch (RuntimeException | Error e) {
            running = false;
            device.report(new IllegalStateException(thread.getName() + " failed; the engine now runs only when an"
                    + " application thread calls in", e));
        }
    }

    private void standBy() {
        long seen = engines.invocations();
        long period = HANDBACK_MIN_NANOS;
        while (running) {
            if (handedOverAt != engines.invocations()) {
                LockSupport.parkNanos(period);
            }
            long now = engines.invocations();
            if (now != seen && handedOverAt != now) {
                seen = now;              // an application thread ran the engine in this period
                period = Math.min(period << 1, HANDBACK_MAX_NANOS);
                continue;
            }
            drive(now);
            seen = engines.invocations();
            period = HANDBACK_MIN_NANOS;
        }
    }

    /** Runs the duty cycle until an application thread calls in (the count moves past {@code seen}). */
    private void drive(long seen) {
        idle.reset();
        while (running && engines.invocations() == seen) {
            int work = engines.standbyCycle();
            if (work < 0) {
                return;                  // an application thread is in a cycle
            }
            idle.idle(work);
        }
    }

    /** Stops the thread and waits for it (device close). */
    void close() {
        running = false;
        LockSupport.unpark(thread);
        engines.wakeEngine();
        try {
            if (!thread.join(java.time.Duration.ofSeconds(10))) {
                throw new IllegalStateException(thread.getName() + " did not stop within 10 s");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while stopping " + thread.getName(), e);
        }
    }
}
