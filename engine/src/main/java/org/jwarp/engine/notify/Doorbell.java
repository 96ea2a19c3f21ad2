package org.jwarp.engine.notify;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.List;
import java.util.concurrent.locks.LockSupport;

import org.jwarp.engine.counters.EngineCounters;
import org.jwarp.engine.idle.Parker;
import org.jwarp.verbs.CounterNames;
import org.jwarp.verbs.Counters;

/**
 * The doorbell "register" of seed 001's host/offload-engine interface: a posting thread writes
 * new work into a ring, then calls {@link #ring()}; the engine thread parks through this object
 * ({@link #park(long)}, it is the engine's {@link Parker}) and is unparked only if it is actually
 * asleep. A post to a busy engine therefore costs one atomic exchange on a cache line the engine
 * reads, no system call.
 *
 * <p><b>No lost wake-ups</b> (a Dekker handshake, both sides sequentially consistent):
 * <pre>
 *   poster:  publish ring entry; pending := 1 (exchange); if it was 0 and sleeping == 1: unpark(waiter)
 *   engine:  sleeping := 1 (volatile); if pending == 0: park;  sleeping := 0
 * </pre>
 * Either the poster sees {@code sleeping == 1} and unparks, or the engine sees {@code pending == 1}
 * and does not park. A poster that finds {@code pending} already 1 skips the check: whoever set it
 * did the check, and an engine that starts sleeping later sees it. The engine clears the flag with
 * {@link #consume()} <em>before</em> it scans its rings, so a post racing with the scan leaves the
 * flag set and the next park returns at once. A stale unpark (the engine woke on its own just as a
 * poster unparked it) only makes the next park return early: one empty duty cycle.
 *
 * <p>Threads: {@link #ring()} from any thread; {@link #consume()} and {@link #park(long)} from the
 * one thread that waits on this doorbell at a time (the engine thread, or in invoker mode the
 * application thread that runs the duty cycle). Counters are read from any thread.
 */
public final class Doorbell extends DoorbellHot implements Parker {

    /**
     * How the waiter blocks and how a poster wakes it. The default parks the thread; an engine
     * thread that must also wake for socket readiness sleeps in its I/O driver instead
     * ({@code org.jwarp.engine.io.IoDriver}) and is woken by the driver's wake-up.
     */
    public interface Sleeper {
        /** Blocks the calling thread for at most {@code nanos}, or until {@link #wake} is called. */
        void sleep(long nanos);

        /** Ends a {@link #sleep} under way on {@code sleeper} (or the next one, if none is). */
        void wake(Thread sleeper);
    }

    /** Plain thread parking. */
    public static final Sleeper PARK = new Sleeper() {
        @Override
        public void sleep(long nanos) {
            LockSupport.parkNanos(nanos);
        }

        @Override
        public void wake(Thread sleeper) {
            LockSupport.unpark(sleeper);
        }
    };

    private final Sleeper sleeper;

    public Doorbell() {
        this(PARK);
    }

    public Doorbell(Sleeper sleeper) {
        this.sleeper = sleeper;
    }

    /** Names of {@link #counters(String)}, a subset of the engine counter names. */
    public static final List<String> COUNTER_NAMES = List.of(CounterNames.DOORBELLS, CounterNames.WAKEUPS,
            EngineCounters.IDLE_PARKS);

    /** Posting thread: tells the waiter there is new work, waking it if it is parked. */
    public void ring() {
        RUNG.getAndAdd(this, 1L);
        if ((int) PENDING.getAndSet(this, 1) == 0 && (int) SLEEPING.getVolatile(this) != 0) {
            WAKEUPS.getAndAdd(this, 1L);
            sleeper.wake(waiter);
        }
    }

    /**
     * Waiter: clears the pending flag and says whether it was set. Call it at the start of a duty
     * cycle, before scanning the rings the doorbell guards.
     */
    public boolean consume() {
        return (int) PENDING.getAcquire(this) != 0 && (int) PENDING.getAndSet(this, 0) != 0;
    }

    /** Any thread: whether a ring is pending (not yet consumed). */
    public boolean isPending() {
        return (int) PENDING.getAcquire(this) != 0;
    }

    /**
     * Waiter: parks for at most {@code nanos} unless a ring is pending; a {@link #ring()} during
     * the park unparks it. Does not consume the pending flag.
     */
    @Override
    public void park(long nanos) {
        waiter = Thread.currentThread();                       // published by the volatile store below
        SLEEPING.setVolatile(this, 1);
        if ((int) PENDING.getVolatile(this) == 0) {
            PARKS.setRelease(this, parks + 1);                 // single writer: the waiter
            sleeper.sleep(nanos);
        }
        SLEEPING.setRelease(this, 0);
    }

    /**
     * Waiter: parks as {@link #park} does, but the thread itself, not in the {@link Sleeper}: a
     * ring or the time ends it, and not the readiness of the sockets an I/O driver's sleep
     * watches (a thread that stands aside while others run the engine must not wake for each
     * message they will handle). Every {@code Sleeper}'s wake unparks the thread.
     */
    public void parkAside(long nanos) {
        waiter = Thread.currentThread();
        SLEEPING.setVolatile(this, 1);
        if ((int) PENDING.getVolatile(this) == 0) {
            PARKS.setRelease(this, parks + 1);
            LockSupport.parkNanos(nanos);
        }
        SLEEPING.setRelease(this, 0);
    }

    /** Any thread: wakes the current waiter if it is parked, without marking work pending (e.g. on close). */
    public void wakeWaiter() {
        if ((int) SLEEPING.getVolatile(this) != 0) {
            sleeper.wake(waiter);
        }
    }

    /** Doorbells rung (calls to {@link #ring()}). */
    public long rung() {
        return (long) RUNG.getAcquire(this);
    }

    /**
     * Unparks sent by {@link #ring()} because the waiter was asleep, or had just declared itself
     * about to park (it may then see the ring and not park; the unpark only ends its next park early).
     */
    public long wakeups() {
        return (long) WAKEUPS.getAcquire(this);
    }

    /** Parks the waiter actually entered (not those skipped because a ring was pending). */
    public long parks() {
        return (long) PARKS.getAcquire(this);
    }

    /**
     * A live read-only view of this doorbell's counters ({@link #COUNTER_NAMES}), to sum into an
     * engine's or a channel's counters with {@link Counters#sum}.
     */
    public Counters counters(String scope) {
        if (scope == null || scope.isBlank()) {
            throw new IllegalArgumentException("counter scope must not be blank");
        }
        return Counters.view(scope, COUNTER_NAMES, index -> switch (index) {
            case 0 -> rung();
            case 1 -> wakeups();
            case 2 -> parks();
            default -> throw new IndexOutOfBoundsException("doorbell counter index " + index);
        });
    }

    @Override
    public String toString() {
        return "Doorbell{pending=" + isPending() + ", rung=" + rung() + ", wakeups=" + wakeups() + ", parks=" + parks()
                + '}';
    }
}

/** Padding so that the doorbell's hot fields share no cache line with neighbouring objects. */
abstract class DoorbellPadLeft {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/**
 * The fields posters and the waiter both touch, kept on one line on purpose: a ring writes
 * {@code pending} and the counters and reads {@code sleeping}; a park writes {@code sleeping}.
 */
abstract class DoorbellHotFields extends DoorbellPadLeft {
    static final VarHandle PENDING;
    static final VarHandle SLEEPING;
    static final VarHandle RUNG;
    static final VarHandle WAKEUPS;
    static final VarHandle PARKS;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            PENDING = l.findVarHandle(DoorbellHotFields.class, "pending", int.class);
            SLEEPING = l.findVarHandle(DoorbellHotFields.class, "sleeping", int.class);
            RUNG = l.findVarHandle(DoorbellHotFields.class, "rungCount", long.class);
            WAKEUPS = l.findVarHandle(DoorbellHotFields.class, "wakeupCount", long.class);
            PARKS = l.findVarHandle(DoorbellHotFields.class, "parks", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    int pending;
    int sleeping;
    Thread waiter;
    long rungCount;
    long wakeupCount;
    long parks;
}

/** Right-hand padding. */
abstract class DoorbellHot extends DoorbellHotFields {
    long q00, q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15;
}
