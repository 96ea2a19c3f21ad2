package org.jwarp.engine.runtime;

import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.jwarp.engine.idle.DeadlineParker;
import org.jwarp.engine.idle.IdleStrategies;
import org.jwarp.engine.idle.IdleStrategy;
import org.jwarp.engine.idle.Parker;
import org.jwarp.engine.provider.JwarpConfig;
import org.jwarp.engine.provider.JwarpDevice;

/**
 * HYBRID mode: an application thread that blocks until the engine produces something (a CM event,
 * a setup command's completion, a completion channel's event) runs the engine's duty cycle itself and sleeps in the engine's I/O
 * driver between idle cycles, as INVOKER mode's threads do, while the {@link StandbyEngine} stands
 * aside. The socket readiness that brings what the thread waits for (an MPA Reply, a Request)
 * then wakes that very thread, which handles it and returns: no hand-over between an engine
 * thread and the waiting one. A thread serving a CQ through a completion channel (DiSNI's CQ
 * processors, an RPC server) thus reads the request, completes it and handles it on one wake-up.
 *
 * <p>One thread at a time holds the engine this way (the driver and the doorbell have one
 * sleeper); another waiting thread waits for its condition while the holder runs the engine, and
 * takes the holder's place when it leaves. A duty cycle run by any other thread (a poster, the
 * acceptor, a standby cycle begun before the holder came) rings the doorbell if the holder's
 * condition now holds, so a sleeping holder learns of what that cycle delivered.
 */
final class EngineWaiter {

    /**
     * How often a thread waiting beside the holder checks its condition and whether the engine is
     * free, where nothing else ends its park (with a parker its answer unparks: once in
     * {@link #FREE_BEFORE_OTHERS_NANOS}).
     */
    private static final long BESIDE_CHECK_NANOS = 50_000;
    /** Other threads' duty cycles between two of the holder's that make it stand aside (one, while it does). */
    private static final int OTHERS_BEFORE_ASIDE = 2;
    /** How long the holder first stands aside; the time doubles while the others go on, up to the most. */
    private static final long ASIDE_MIN_NANOS = 50_000;
    private static final long ASIDE_MAX_NANOS = 1_000_000;
    /** How long the engine goes without a holder before a thread other than the last answered may take it. */
    private static final long FREE_BEFORE_OTHERS_NANOS = 1_000_000;

    private final JwarpDevice device;
    private final EngineThreads engines;
    private final EngineWorker worker;
    private final StandbyEngine standby;
    /**
     * The holder's idle steps; the last sleeps in the engine's driver, until the wait's end at
     * most. While it is the last application thread that ran a cycle, it spins first, as an
     * engine thread does: what it waits for may come within a round trip. Once another thread
     * calls in (the program's thread it handed a completion to, say, posting the reply), it
     * sleeps at once, leaving that thread the CPU: hybrid mode runs where CPUs are few.
     */
    private final IdleStrategy spinning;
    private final IdleStrategy sleeping;
    private final AtomicReference<Thread> holder = new AtomicReference<>();
    /** The thread whose wait was last answered (see {@link #mayTake}). */
    private volatile Thread lastAnswered;
    /** When the last holder gave the engine up (the device's clock). */
    private volatile long releasedAt;
    /** The holder's condition (read by threads that ran a cycle beside it); null without a holder. */
    private volatile BooleanSupplier holderDone;
    /** When the holder's wait ends (the device's clock). */
    private volatile long holdDeadline;
    /** Set while the holder is in (or about to enter) a sleep in the I/O driver (see {@link #wakeFromSleep()}). */
    private volatile boolean asleep;

    EngineWaiter(JwarpDevice device, EngineThreads engines, EngineWorker worker, StandbyEngine standby) {
        this.device = device;
        this.engines = engines;
        this.worker = worker;
        this.standby = standby;
        DeadlineParker parker = new DeadlineParker(this::sleepUnlessInvoked, worker::nanosToNextDeadline);
        this.spinning = IdleStrategies.forEngine(device.jwarpConfig(), parker);
        this.sleeping = IdleStrategies.forWaiter(device.jwarpConfig(), parker);
    }

    /** Whether an application thread holds the engine for a wait (the standby then stays out). */
    boolean held() {
        return holder.get() != null;
    }

    /**
     * Waits until {@code done} holds or {@code nanos} passed: as the engine, if no other thread
     * holds it for a wait; beside the holder otherwise, parked by {@code beside} for a while at a
     * time (a parker that what makes {@code done} hold unparks ends the wait at once). Returns
     * whether {@code done} holds.
     *
     * <p>Of several waiting threads, the one whose wait was last answered takes the engine when it
     * comes back ({@link #mayTake}): a server's thread for the busy CQ, not one waiting on an idle
     * channel or for a CM event, is then the one the next request wakes.
     */
    boolean await(BooleanSupplier done, long nanos, Parker beside) throws InterruptedException {
        long deadline = device.clock().nanoTime() + nanos;
        Thread me = Thread.currentThread();
        if (holder.get() == me) {
            return runHolding(done, Math.min(deadline, holdDeadline));   // a wait within the holder's own wait
        }
        while (true) {
            if (holder.get() == null && mayTake(me) && holder.compareAndSet(null, me)) {
                try {
                    holdDeadline = deadline;
                    holderDone = done;
                    // a Dekker handshake with the standby's sleepUnlessInvoked: it sets its flag and then
                    // reads held(), this thread took the engine and then reads that flag
                    standby.wakeFromSleep();
                    return answered(runHolding(done, deadline), me);
                } finally {
                    holderDone = null;
                    releasedAt = device.clock().nanoTime();
                    holder.set(null);
                    Thread last = lastAnswered;
                    if (last != null && last != me) {
                        LockSupport.unpark(last);     // if it waits beside, the engine is its to take
                    }
                }
            }
            if (done.getAsBoolean()) {
                return answered(true, me);
            }
            long left = deadline - device.clock().nanoTime();
            if (left <= 0) {
                return false;
            }
            // a parker the answer unparks needs no frequent look: only the engine's release
            beside.park(Math.min(left, beside == Parker.PLAIN ? BESIDE_CHECK_NANOS : FREE_BEFORE_OTHERS_NANOS));
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting on the device");
            }
        }
    }

    /**
     * Whether {@code me} may take the free engine now: the thread whose wait was last answered
     * may at once, another once the engine has gone a while without a holder. So a thread that
     * leaves to handle what it waited for finds the engine free when it comes back, and threads
     * whose waits go unanswered (an idle channel's, a CM event's) wait beside it.
     */
    private boolean mayTake(Thread me) {
        Thread last = lastAnswered;
        return last == null || last == me || device.clock().nanoTime() - releasedAt >= FREE_BEFORE_OTHERS_NANOS;
    }

    private boolean answered(boolean got, Thread me) {
        if (got && lastAnswered != me) {
            lastAnswered = me;
        }
        return got;
    }

    /**
     * The holder's loop: duty cycles, and between idle ones the idle strategy down to a sleep in
     * the driver — unless application threads are running cycles themselves (a poller): then it
     * stands aside, parked until their cycles deliver what it waits for ({@link #cycleBeside}
     * rings) or a while passes, and looks again; once they stop, it runs the engine again.
     */
    private boolean runHolding(BooleanSupplier done, long deadline) throws InterruptedException {
        Thread me = Thread.currentThread();
        spinning.reset();
        sleeping.reset();
        long seen = engines.invocations();
        long aside = 0;                      // how long it stood aside last, 0: it did not
        while (true) {
            if (done.getAsBoolean()) {
                return true;
            }
            long left = deadline - device.clock().nanoTime();
            if (left <= 0) {
                return false;
            }
            int work = engines.holderCycle();
            if (done.getAsBoolean()) {
                return true;
            }
            if (engines.invoker().isClosed()) {
                // the device closed under the wait: no cycle runs any more, and its sleep is gone
                return engines.awaitEngineThread(done, Math.max(0, deadline - device.clock().nanoTime()));
            }
            long now = engines.invocations();
            long others = now - seen - (work >= 0 ? 1 : 0);          // cycles other threads ran since its last look
            if (work < 0 || others >= (aside > 0 ? 1 : OTHERS_BEFORE_ASIDE)) {
                // contending for the cycles would only take a CPU from the thread that runs them
                // and handles what they read; one post's cycle now and then is no reason to
                aside = aside == 0 ? ASIDE_MIN_NANOS : Math.min(aside << 1, ASIDE_MAX_NANOS);
                worker.doorbell().parkAside(Math.min(aside, Math.max(0, deadline - device.clock().nanoTime())));
                spinning.reset();
                sleeping.reset();
            } else {
                aside = 0;
                IdleStrategy idle = engines.lastCaller() == me ? spinning : sleeping;
                if (work > 0 && worker.setupOnly()) {
                    idle.setupWorked();
                } else {
                    idle.idle(work);
                }
            }
            seen = engines.invocations();
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting on the device");
            }
        }
    }

    /**
     * The holder's park, bounded by its wait's end. It sets {@link #asleep} and then reads whether
     * a thread is in a cycle; a thread that takes a cycle sets the flag and then reads
     * {@link #asleep} ({@link #wakeFromSleep()}): one sees the other.
     */
    private void sleepUnlessInvoked(long nanos) {
        long bound = Math.min(nanos, holdDeadline - device.clock().nanoTime());
        if (bound <= 0) {
            return;
        }
        asleep = true;
        try {
            if (!engines.invokedNow()) {
                worker.doorbell().park(bound);
            }
        } finally {
            asleep = false;
        }
    }

    /**
     * Another thread took a cycle: where the driver's sleep holds what that cycle's readiness check
     * takes (NIO's selector), the holder is woken, and awaited, first. One volatile read when not asleep.
     */
    void wakeFromSleep() {
        Thread h = holder.get();
        while (asleep && h != null && h != Thread.currentThread()) {
            worker.driver().wakeup();
            LockSupport.unpark(h);
            Thread.yield();
        }
    }

    /**
     * After a duty cycle run by a thread other than the holder: if it delivered what the holder
     * waits for, the doorbell wakes the holder (or keeps it from sleeping: it reads the ring after
     * it says it sleeps).
     */
    void cycleBeside() {
        BooleanSupplier d = holderDone;
        if (d != null && holder.get() != Thread.currentThread() && d.getAsBoolean()) {
            worker.doorbell().ring();
        }
    }

    /**
     * HYBRID mode, the hand-over a thread makes before it sleeps elsewhere: it runs duty cycles
     * itself for up to {@link JwarpConfig#runBeforeSleepNanos()}, so that what is due within a
     * round trip needs no thread woken on this side. Returns whether {@code done} held.
     */
    boolean runHereAMoment(BooleanSupplier done) {
        return runBeforeSleep(() -> done.getAsBoolean() ? Boolean.TRUE : null, Long.MAX_VALUE) != null;
    }

    /**
     * HYBRID mode: runs duty cycles on the calling thread until {@code ready} gives something,
     * for at most {@link JwarpConfig#runBeforeSleepNanos()} and {@code timeoutNanos}; null if it
     * gave nothing. What a thread does before it hands the engine to the standby and sleeps.
     */
    <T> T runBeforeSleep(Supplier<T> ready, long timeoutNanos) {
        long budget = Math.min(timeoutNanos, device.jwarpConfig().runBeforeSleepNanos());
        long start = device.clock().nanoTime();
        while (true) {
            T got = ready.get();
            if (got != null) {
                return got;
            }
            if (device.clock().nanoTime() - start >= budget || engines.invoker().isClosed()) {
                return null;
            }
            if (engines.invoke() == 0) {
                Thread.onSpinWait();
            }
        }
    }
}
