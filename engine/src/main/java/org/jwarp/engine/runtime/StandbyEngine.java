package org.jwarp.engine.runtime;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.jwarp.engine.affinity.AffinityException;
import org.jwarp.engine.affinity.ThreadAffinity;
import org.jwarp.engine.idle.DeadlineParker;
import org.jwarp.engine.idle.IdleStrategies;
import org.jwarp.engine.idle.IdleStrategy;
import org.jwarp.engine.provider.JwarpDevice;

/**
 * HYBRID mode's engine thread ({@link org.jwarp.engine.provider.JwarpConfig.ThreadingMode#HYBRID}). While
 * application threads call into the device (poll, post), they run the duty cycle and this thread
 * only looks, now and then ({@link #HANDBACK_MIN_NANOS}), whether they still do; when a whole period passed
 * without one, or an application thread is about to block ({@link #handOver()}), it runs the duty
 * cycle itself, sleeping in the engine's I/O driver between cycles that found no work (until a
 * socket, a post, a timer or {@link IdleStrategies#ENGINE_SLEEP_NANOS}), until an application
 * thread calls in again. So a polling application keeps one busy thread per process,
 * and a passive one still answers its peer.
 *
 * <p>Who runs a cycle is decided by the device's {@code invoking} flag: never two at once.
 */
public final class StandbyEngine implements Runnable {

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
    private final EngineWorker worker;
    private final IdleStrategy idle;
    /**
     * Set while this thread is in (or about to enter) a sleep in the engine's I/O driver, where an
     * application cycle's readiness check could wait for it (NIO's selector holds a lock while it
     * sleeps): an application thread that takes the engine wakes it first ({@link #wakeFromSleep()}).
     */
    private volatile boolean asleep;
    private final Thread thread;
    /** The CPU this thread pins itself to, or -1. */
    private final int cpu;
    private volatile boolean running = true;
    /** The application's invocation count at its last {@link #handOver()}; -1 for none. */
    private volatile long handedOverAt = -1;

    /**
     * @param worker the invoked engine: this thread sleeps in its I/O driver, up to
     *               {@link IdleStrategies#ENGINE_SLEEP_NANOS} or its next timer
     * @param cpu    the CPU to pin this thread to (the application's, where it takes over), or -1
     */
    StandbyEngine(JwarpDevice device, EngineThreads engines, EngineWorker worker, int cpu) {
        this.device = device;
        this.cpu = cpu;
        this.engines = engines;
        this.worker = worker;
        this.idle = IdleStrategies.forEngine(device.jwarpConfig(),
                new DeadlineParker(this::sleepUnlessInvoked, worker::nanosToNextDeadline));
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
    public void handOver() {
        handedOverAt = engines.invocations();
        LockSupport.unpark(thread);
        engines.wakeEngine();
    }

    @Override
    public void run() {
        try {
            pin();
            standBy();
        } catch (RuntimeException | Error e) {
            running = false;
            device.report(new IllegalStateException(thread.getName() + " failed; the engine now runs only when an"
                    + " application thread calls in", e));
        }
    }

    /** Pins this thread where asked; one that cannot be pinned still runs, and says so. */
    private void pin() {
        if (cpu < 0) {
            return;
        }
        String why;
        try {
            why = ThreadAffinity.pinCurrentThread(cpu) ? null : ThreadAffinity.unsupportedReason();
        } catch (AffinityException | IllegalArgumentException e) {
            why = e.getMessage();
        }
        if (why != null) {
            System.err.println("jwarp: " + thread.getName() + " runs unpinned: CPU " + cpu + " refused (" + why + ")");
        }
    }

    private void standBy() {
        long seen = engines.invocations();
        long period = HANDBACK_MIN_NANOS;
        boolean busy = false;
        while (running) {
            if (engines.waiterHolds()) {
                // an application thread runs the engine while it waits: look again a period later
                LockSupport.parkNanos(HANDBACK_MIN_NANOS);
                seen = engines.invocations();
                period = HANDBACK_MIN_NANOS;
                continue;
            }
            if (handedOverAt != engines.invocations()) {
                LockSupport.parkNanos(period);
            } else if (busy) {
                Thread.yield();          // handed over, but an application thread is in a cycle: leave it the CPU
            }
            long now = engines.invocations();
            if (now != seen && handedOverAt != now) {
                seen = now;              // an application thread ran the engine in this period
                period = Math.min(period << 1, HANDBACK_MAX_NANOS);
                continue;
            }
            busy = drive(now);
            seen = engines.invocations();
            period = HANDBACK_MIN_NANOS;
        }
    }

    /**
     * Runs the duty cycle until an application thread calls in (the count moves past {@code seen});
     * true if it stopped because one was in a cycle.
     */
    private boolean drive(long seen) {
        idle.reset();
        while (running && engines.invocations() == seen && !engines.waiterHolds()) {
            int work = engines.standbyCycle();
            if (work < 0) {
                return true;             // an application thread is in a cycle
            }
            if (work > 0 && worker.setupOnly()) {
                idle.setupWorked();
            } else {
                idle.idle(work);
            }
        }
        return false;
    }

    /**
     * The park of this thread's idle strategy. A Dekker handshake with {@link #wakeFromSleep()}:
     * this thread sets {@link #asleep} and then reads the invoking flag, an application thread
     * sets the flag and then reads {@link #asleep}; one of them sees the other, so no
     * application cycle meets a sleep it did not end.
     */
    private void sleepUnlessInvoked(long nanos) {
        asleep = true;
        try {
            if (!engines.invokedNow() && !engines.waiterHolds()) {
                worker.doorbell().park(nanos);
            }
        } finally {
            asleep = false;
        }
    }

    /**
     * An application thread took the engine: if this thread sleeps in the I/O driver, it is woken,
     * and awaited, before the application's cycle reads readiness (a wake-up spent by that cycle's
     * poll would leave this one asleep). Hot path: one volatile read when not asleep.
     */
    void wakeFromSleep() {
        while (asleep) {
            worker.driver().wakeup();    // the driver's sleep, or the short park below it
            LockSupport.unpark(thread);
            Thread.yield();              // the standby needs a CPU to leave its sleep: on a busy machine, give it this one
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
