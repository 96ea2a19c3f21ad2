package org.jwarp.engine.notify;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.Arrays;
import java.util.concurrent.TimeUnit;
import java.util.function.IntSupplier;

import org.jwarp.engine.agent.AgentInvoker;
import org.jwarp.engine.idle.IdleStrategy;
import org.jwarp.engine.ring.MpscSlotRing;
import org.jwarp.sys.NanoClock;
import org.jwarp.verbs.Moderation;

/**
 * The interrupt emulation behind one completion channel (seed 001: "the OE can also trigger an
 * interrupt to signify the host that a new event was posted"; OFED's {@code ibv_comp_channel}).
 *
 * <ul>
 *   <li>Setup: {@link #register(Object)} attaches a CQ and returns its {@link CqArming}.</li>
 *   <li>CQ consumer: {@link CqArming#requestNotify(boolean)} arms it for one event.</li>
 *   <li>Engine threads: {@link CqArming#onCompletion(boolean)} after adding a completion to the
 *       CQ; {@link #poll()} from every duty cycle, which fires the CQs whose moderation period
 *       ran out. No timer thread: the period is only as precise as the engine's duty cycle, so an
 *       engine that parks must park no longer than it is willing to be late
 *       ({@link #nanosToNextDeadline()} says how long that is; wrap the engine's doorbell in an
 *       {@link org.jwarp.engine.idle.DeadlineParker} with it).</li>
 *   <li>Waiter: {@link #await(long, TimeUnit)} blocks until an event, {@link #tryAwait()} does not.</li>
 * </ul>
 *
 * <p><b>Semantics.</b> An armed CQ raises one event after {@link Moderation#count()} matching
 * completions, or {@link Moderation#periodMicros()} after the first of them, whichever comes
 * first, and disarms; an unarmed CQ never raises one. An event is queued (oldest first) and the
 * waiter is woken through a {@link Doorbell} (its {@link Doorbell#wakeups()} counts the wake-ups
 * actually sent to a parked waiter). A CQ that fires again while its previous event is still
 * queued is not queued twice: the waiter polls the CQ anyway. A moderation count above 2^20-1
 * (far beyond OFED's 16-bit {@code cq_count}) counts as 2^20-1.
 *
 * <p>Data path: {@code onCompletion}, {@code poll}, {@code requestNotify} and {@code tryAwait}
 * allocate nothing and take no lock.
 *
 * @param <Q> the CQ type the waiter gets back
 */
public final class CompletionNotifier<Q> {

    private static final VarHandle EVENTS;

    static {
        try {
            EVENTS = MethodHandles.lookup().findVarHandle(CompletionNotifier.class, "events", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** A queued event: which CQ fired. */
    private static final class EventSlot {
        CqArming<?> cq;
    }

    private final Moderation moderation;
    private final NanoClock clock;
    private final long threshold;
    private final long periodNanos;
    private final int maxCqs;
    private final MpscSlotRing<EventSlot> queue;
    private final Doorbell doorbell = new Doorbell();

    @SuppressWarnings("unchecked")
    private volatile CqArming<Q>[] cqs = (CqArming<Q>[]) new CqArming<?>[0];
    private volatile boolean closed;
    @SuppressWarnings("unused")                                    // through EVENTS
    private long events;

    /**
     * @param moderation when an armed CQ raises its event
     * @param clock      the clock of the moderation period and of {@code await} timeouts
     * @param maxCqs     most CQs attached at once (sizes the event queue: one queued event per CQ)
     */
    public CompletionNotifier(Moderation moderation, NanoClock clock, int maxCqs) {
        if (moderation == null || clock == null) {
            throw new IllegalArgumentException("moderation and clock must not be null");
        }
        if (maxCqs < 1 || maxCqs >= 1 << 29) {
            throw new IllegalArgumentException("maxCqs must be in 1..2^29-1: " + maxCqs);
        }
        this.moderation = moderation;
        this.clock = clock;
        this.threshold = Math.min(moderation.count(), CqArming.COUNT_MAX);
        this.periodNanos = TimeUnit.MICROSECONDS.toNanos(moderation.periodMicros());
        this.maxCqs = maxCqs;
        // One queued event per attached CQ, plus the one a waiter is taking out while its CQ fires
        // again, plus events of destroyed CQs not yet drained (register() keeps those bounded).
        this.queue = new MpscSlotRing<>(Integer.highestOneBit(2 * maxCqs + 1) << 1, EventSlot::new);
    }

    /**
     * Setup: attaches {@code cq}, disarmed.
     *
     * @throws IllegalStateException if closed or {@code maxCqs} CQs are attached
     */
    public synchronized CqArming<Q> register(Q cq) {
        if (cq == null) {
            throw new IllegalArgumentException("cq must not be null");
        }
        checkOpen();
        CqArming<Q>[] current = cqs;
        if (current.length >= maxCqs) {
            throw new IllegalStateException("completion channel already has " + maxCqs + " CQs attached");
        }
        // Queued entries are at most one per attached CQ plus those of destroyed CQs; refusing here
        // keeps raise() from ever finding the queue full.
        if (current.length + 1 + queue.size() + 1 > queue.capacity()) {
            throw new IllegalStateException("completion channel holds " + queue.size()
                    + " undelivered events (some of destroyed CQs); await them before attaching another CQ");
        }
        CqArming<Q> arming = new CqArming<>(this, cq);
        CqArming<Q>[] next = Arrays.copyOf(current, current.length + 1);
        next[current.length] = arming;
        cqs = next;
        return arming;
    }

    /**
     * Setup: detaches a CQ (its {@code ibv_destroy_cq}). It raises no more events, an event of it
     * still queued is dropped, and arming it throws.
     *
     * @return false if it was not attached
     */
    public synchronized boolean unregister(CqArming<Q> arming) {
        CqArming<Q>[] current = cqs;
        for (int i = 0; i < current.length; i++) {
            if (current[i] == arming) {
                arming.kill();
                CqArming<Q>[] next = Arrays.copyOf(current, current.length - 1);
                System.arraycopy(current, i + 1, next, i, current.length - 1 - i);
                cqs = next;
                return true;
            }
        }
        return false;
    }

    /** Number of CQs attached. */
    public int registered() {
        return cqs.length;
    }

    /**
     * Engine thread, every duty cycle: fires the armed CQs whose moderation period has run out.
     * Reads the clock only if some CQ is waiting on its period.
     *
     * @return events raised (the duty cycle's work count)
     */
    public int poll() {
        if (threshold == 1) {
            return 0;                                     // every matching completion fires at once
        }
        CqArming<Q>[] current = cqs;
        long now = 0;
        boolean haveNow = false;
        int raised = 0;
        for (CqArming<Q> arming : current) {
            if (arming.pendingCount() > 0) {
                if (!haveNow) {
                    now = clock.nanoTime();
                    haveNow = true;
                }
                if (arming.pollTimer(now, periodNanos)) {
                    raised++;
                }
            }
        }
        return raised;
    }

    /**
     * The time until the earliest moderation deadline, for an engine deciding how long it may
     * park: {@code Long.MAX_VALUE} if no armed CQ is waiting on its period, 0 if one is overdue.
     */
    public long nanosToNextDeadline() {
        if (threshold == 1) {
            return Long.MAX_VALUE;
        }
        long best = Long.MAX_VALUE;
        long now = 0;
        boolean haveNow = false;
        for (CqArming<Q> arming : cqs) {
            long first = arming.firstCompletionTime();
            if (first >= 0) {
                if (!haveNow) {
                    now = clock.nanoTime();
                    haveNow = true;
                }
                long elapsed = (now - first) & CqArming.TIME_MASK;
                best = Math.min(best, Math.max(0, periodNanos - elapsed));
            }
        }
        return best;
    }

    /** Called by the thread whose CAS fired {@code arming}: queues the event and wakes the waiter. */
    void raise(CqArming<Q> arming) {
        EVENTS.getAndAdd(this, 1L);
        if (!arming.markQueued()) {
            return;                                       // still queued from before: one entry is enough
        }
        long claim = queue.claim();
        if (claim < 0) {
            // Cannot happen: each CQ has at most one queued entry and the queue has room for all of them.
            throw new IllegalStateException("completion event queue overflow: " + queue);
        }
        queue.slot(claim).cq = arming;
        queue.publish(claim);
        doorbell.ring();
    }

    /**
     * Waiter: takes the oldest event without waiting.
     *
     * @return the CQ that fired, or {@code null} if no event is queued
     */
    @SuppressWarnings("unchecked")
    public Q tryAwait() {
        for (;;) {
            EventSlot slot = queue.peek();
            if (slot == null) {
                return null;
            }
            CqArming<Q> arming = (CqArming<Q>) slot.cq;
            slot.cq = null;
            // Clear before releasing: a CQ that fires again from here on queues a new entry
            // (at worst one extra event), never finds a stale flag and drops its event.
            arming.clearQueued();
            queue.release();
            if (!arming.isDead()) {
                return arming.cq();
            }
        }
    }

    /**
     * Waiter: blocks until an armed CQ fires or the timeout passes, parking in between; an event
     * wakes it at once (the engine unparks it through the {@link #doorbell()}).
     *
     * @return the CQ that fired, or {@code null} on timeout
     * @throws InterruptedException  if the thread is interrupted while waiting
     * @throws IllegalStateException if the notifier is closed (also while waiting)
     */
    public Q await(long timeout, TimeUnit unit) throws InterruptedException {
        long deadline = deadline(timeout, unit);
        for (;;) {
            checkOpen();
            doorbell.consume();                           // before looking: a later raise leaves it set
            Q q = tryAwait();
            if (q != null) {
                return q;
            }
            long remaining = deadline - clock.nanoTime();
            if (remaining <= 0) {
                return null;
            }
            doorbell.park(remaining);
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting for a completion event");
            }
        }
    }

    /**
     * Waiter in INVOKER mode: runs the engine's duty cycle on this thread until an armed CQ fires
     * or the timeout passes, idling between cycles that found no work. The agent of
     * {@code invoker} must call {@link #poll()} in its duty cycle, as an engine thread would.
     *
     * @return the CQ that fired, or {@code null} on timeout
     * @throws InterruptedException                           if the thread is interrupted
     * @throws IllegalStateException                          if the notifier is closed
     * @throws org.jwarp.engine.agent.AgentFailedException if the engine's duty cycle fails
     */
    public Q await(long timeout, TimeUnit unit, AgentInvoker invoker, IdleStrategy idle) throws InterruptedException {
        return await(timeout, unit, (IntSupplier) invoker::invoke, idle);
    }

    /**
     * As {@link #await(long, TimeUnit, AgentInvoker, IdleStrategy)}, with the duty cycle given as
     * a function returning its work count (a device's guarded {@code invoke}).
     */
    public Q await(long timeout, TimeUnit unit, IntSupplier dutyCycle, IdleStrategy idle) throws InterruptedException {
        long deadline = deadline(timeout, unit);
        idle.reset();
        for (;;) {
            checkOpen();
            Q q = tryAwait();
            if (q != null) {
                return q;
            }
            if (deadline - clock.nanoTime() <= 0) {
                return null;
            }
            int work = dutyCycle.getAsInt();
            q = tryAwait();
            if (q != null) {
                return q;
            }
            idle.idle(work);
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting for a completion event");
            }
        }
    }

    /** The deadline; compared as {@code deadline - now}, which stays right across clock wrap-around. */
    private long deadline(long timeout, TimeUnit unit) {
        return clock.nanoTime() + unit.toNanos(Math.max(0, timeout));    // toNanos saturates at Long.MAX_VALUE
    }

    /**
     * Destroys the notifier; a thread blocked in {@code await} returns with
     * {@link IllegalStateException}.
     *
     * @throws IllegalStateException if CQs are still attached (OFED's EBUSY)
     */
    public synchronized void close() {
        if (cqs.length > 0) {
            throw new IllegalStateException("completion channel still has " + cqs.length + " CQs attached");
        }
        closed = true;
        doorbell.wakeWaiter();
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("completion channel is closed");
        }
    }

    /** Whether {@link #close()} was called. */
    public boolean isClosed() {
        return closed;
    }

    /** Events raised (including any coalesced into an event still queued). */
    public long events() {
        return (long) EVENTS.getAcquire(this);
    }

    /** The waiter's doorbell: its counters are the channel's wake-ups. */
    public Doorbell doorbell() {
        return doorbell;
    }

    /** The moderation. */
    public Moderation moderation() {
        return moderation;
    }

    long threshold() {
        return threshold;
    }

    NanoClock clock() {
        return clock;
    }

    @Override
    public String toString() {
        return "CompletionNotifier{" + moderation + ", cqs=" + cqs.length + ", events=" + events() + '}';
    }
}
