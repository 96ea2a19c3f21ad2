package org.jwarp.engine.notify;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;

/**
 * The notification state of one CQ attached to a {@link CompletionNotifier}: whether it is armed
 * (OFED {@code ibv_req_notify_cq}: next completion, or solicited only), and the moderation
 * progress since it was armed (matching completions so far, time of the first one).
 *
 * <p><b>One word, one CAS.</b> Several engine threads may complete work on the same CQ, the
 * application arms it, and whichever engine thread polls the timers may fire it; all of that is a
 * compare-and-set on one {@code long}:
 * <pre>
 *   bits 63..62  arm: 0 disarmed, 1 solicited-only, 2 all completions, 3 unregistered
 *   bits 61..42  matching completions since armed (saturates at 2^20-1)
 *   bits 41..0   low 42 bits of the clock at the first of them (2^42 ns = 73 minutes of range;
 *                the period is at most 1 s and is checked every duty cycle)
 * </pre>
 * Firing is the CAS from an armed word to 0 (disarmed, nothing counted), so exactly one thread
 * raises the event, and the count restarts atomically with the disarm (seed 001: the engine
 * "triggers an interrupt" only when the host asked for one).
 *
 * @param <Q> the CQ type the waiter gets back
 */
public final class CqArming<Q> extends CqArmingPadded {

    static final int DISARMED = 0;
    static final int SOLICITED = 1;
    static final int ALL = 2;
    static final int DEAD = 3;

    static final int ARM_SHIFT = 62;
    static final int COUNT_SHIFT = 42;
    static final long COUNT_MAX = (1L << 20) - 1;
    static final long TIME_MASK = (1L << COUNT_SHIFT) - 1;

    private final CompletionNotifier<Q> notifier;
    private final Q cq;

    CqArming(CompletionNotifier<Q> notifier, Q cq) {
        this.notifier = notifier;
        this.cq = cq;
    }

    /** The CQ. */
    public Q cq() {
        return cq;
    }

    /** The notifier (completion channel) this CQ is attached to. */
    public CompletionNotifier<Q> notifier() {
        return notifier;
    }

    /**
     * CQ consumer: arms the CQ for one event ({@code ibv_req_notify_cq}). Arming an armed CQ
     * widens solicited-only to all completions and otherwise changes nothing (the moderation
     * progress is kept).
     *
     * @throws IllegalStateException if the CQ was unregistered
     */
    public void requestNotify(boolean solicitedOnly) {
        int want = solicitedOnly ? SOLICITED : ALL;
        for (;;) {
            long s = (long) STATE.getVolatile(this);
            int arm = arm(s);
            long next;
            if (arm == DEAD) {
                throw new IllegalStateException("CQ " + cq + " is no longer attached to its completion channel");
            } else if (arm == DISARMED) {
                next = (long) want << ARM_SHIFT;
            } else if (arm == SOLICITED && want == ALL) {
                next = (s & ~(3L << ARM_SHIFT)) | ((long) ALL << ARM_SHIFT);
            } else {
                return;                                        // already armed at least this wide
            }
            if (STATE.compareAndSet(this, s, next)) {
                return;
            }
        }
    }

    /**
     * Engine thread: a completion was added to the CQ. Counts it if it matches the arming, and
     * raises the event when the moderation count is reached.
     *
     * @param solicitedOrError true for a receive completion carrying the solicited-event bit and
     *                         for any error completion: what a solicited-only arming waits for
     * @return true if this call raised the event
     */
    public boolean onCompletion(boolean solicitedOrError) {
        for (;;) {
            long s = (long) STATE.getAcquire(this);
            int arm = arm(s);
            if (arm == DISARMED || arm == DEAD || (arm == SOLICITED && !solicitedOrError)) {
                return false;
            }
            long count = count(s) + 1;
            if (count >= notifier.threshold()) {
                if (STATE.compareAndSet(this, s, 0L)) {
                    notifier.raise(this);
                    return true;
                }
            } else {
                long first = count == 1 ? notifier.clock().nanoTime() : s;
                long next = (s & (3L << ARM_SHIFT)) | (count << COUNT_SHIFT) | (first & TIME_MASK);
                if (STATE.compareAndSet(this, s, next)) {
                    return false;
                }
            }
        }
    }

    /**
     * Any engine thread: raises the event if the moderation period has run out since the first
     * matching completion.
     *
     * @return true if this call raised the event
     */
    boolean pollTimer(long now, long periodNanos) {
        long s = (long) STATE.getAcquire(this);
        int arm = arm(s);
        if (arm != SOLICITED && arm != ALL || count(s) == 0) {
            return false;
        }
        if (((now - s) & TIME_MASK) < periodNanos) {
            return false;
        }
        if (STATE.compareAndSet(this, s, 0L)) {
            notifier.raise(this);
            return true;
        }
        return false;                                          // a completion or another poller moved it on
    }

    /** Whether the CQ is armed (either way). */
    public boolean isArmed() {
        int arm = arm((long) STATE.getAcquire(this));
        return arm == SOLICITED || arm == ALL;
    }

    /** Whether the CQ is armed for solicited completions only. */
    public boolean isSolicitedOnly() {
        return arm((long) STATE.getAcquire(this)) == SOLICITED;
    }

    /** Matching completions counted since the CQ was armed. */
    public long pendingCount() {
        return count((long) STATE.getAcquire(this));
    }

    /** The clock's low 42 bits at the first counted completion, or -1 if disarmed or none counted. */
    long firstCompletionTime() {
        long s = (long) STATE.getAcquire(this);
        int arm = arm(s);
        return (arm == SOLICITED || arm == ALL) && count(s) > 0 ? s & TIME_MASK : -1;
    }

    boolean isDead() {
        return arm((long) STATE.getAcquire(this)) == DEAD;
    }

    void kill() {
        STATE.setVolatile(this, (long) DEAD << ARM_SHIFT);
    }

    /** Sets the queued flag; true if it was clear (the caller must enqueue the event). */
    boolean markQueued() {
        return QUEUED.compareAndSet(this, 0, 1);
    }

    void clearQueued() {
        QUEUED.setVolatile(this, 0);
    }

    private static int arm(long s) {
        return (int) (s >>> ARM_SHIFT);
    }

    private static long count(long s) {
        return (s >>> COUNT_SHIFT) & COUNT_MAX;
    }

    @Override
    public String toString() {
        long s = (long) STATE.getAcquire(this);
        String[] arms = {"disarmed", "solicited", "all", "unregistered"};
        return "CqArming{" + cq + ", " + arms[arm(s)] + ", count=" + count(s) + '}';
    }
}

abstract class CqArmingPad {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;
}

/** The hot fields, on a line of their own: CQs fired by different engine threads do not share it. */
abstract class CqArmingFields extends CqArmingPad {
    static final VarHandle STATE;
    static final VarHandle QUEUED;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            STATE = l.findVarHandle(CqArmingFields.class, "state", long.class);
            QUEUED = l.findVarHandle(CqArmingFields.class, "queued", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    long state;
    int queued;
}

abstract class CqArmingPadded extends CqArmingFields {
    long q00, q01, q02, q03, q04, q05, q06, q07, q08, q09, q10, q11, q12, q13, q14, q15;
}
