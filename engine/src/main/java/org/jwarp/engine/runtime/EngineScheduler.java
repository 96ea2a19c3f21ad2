package org.jwarp.engine.runtime;

import java.io.IOException;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * Which of an engine thread's connections a duty cycle visits, and which of them it reads — the
 * whole policy in one place, as Aeron's {@code DataTransportPoller} keeps "poll each transport
 * below a threshold, select above it":
 *
 * <ul>
 *   <li><b>Readiness threshold.</b> From {@code readinessFrom} connections on, one readiness
 *       check per cycle ({@code epoll_wait}) says which sockets have bytes, and only those are
 *       read: N connections cost one system call and a read per readable one, not N reads.</li>
 *   <li><b>Read in turn.</b> Below it, a connection the peer talks on is read every cycle; one
 *       that only sends, a quiet neighbour, and the one whose poster just sent
 *       ({@link Schedule#readEveryCycle}) every {@link #QUIET_READ_EVERY}-th while the engine
 *       spins; every connection after a sleep (data may be what ended it).</li>
 *   <li><b>Talking peers above it.</b> While fewer than {@code readinessFrom} of the visited
 *       connections have a peer that keeps talking ({@link Schedule#peerKeepsTalking}), those are read every
 *       cycle without a readiness check, and the check itself runs every
 *       {@link #QUIET_READ_EVERY}-th cycle (and after a sleep): a ping-pong among thousands of idle
 *       connections costs one read per poll, as alone, not a check and a read.</li>
 *   <li><b>Parking.</b> Once reads follow readiness, a connection that did nothing in a cycle and
 *       has nothing to do ({@link Scheduled#idle}: established, nothing framed or waiting, no timer)
 *       and whose peer is not talking is parked: not visited until its socket is readable, its QP is posted to, something ends
 *       it, or reads stop following readiness. A post and a park each write their flag before they
 *       read the other's (a full fence on each side), so no post is missed.</li>
 *   <li><b>Timers.</b> The earliest deadline among the visited connections that are not quiet
 *       (an MPA timeout, the wait for an RTR), so that a sleeping engine wakes for it and not
 *       before; one that cannot name its deadline is polled.</li>
 * </ul>
 *
 * Time comes in as {@code now} from the worker's injected clock; readiness from a
 * {@link Readiness}. Engine thread only, except {@link #parkedCount()}.
 *
 * @param <C> the connections scheduled
 */
public final class EngineScheduler<C extends EngineScheduler.Scheduled> {

    /** Duty cycles between two reads of a quiet connection while the engine spins. */
    public static final int QUIET_READ_EVERY = 8;

    /** {@link #nextTimer()}: no visited connection waits on a timer. */
    public static final long NO_TIMER = Long.MAX_VALUE;
    /** {@link Scheduled#deadline()}: the connection cannot name its deadline, and is polled. */
    public static final long POLL = Long.MIN_VALUE;

    /** A connection as the scheduler sees it. */
    public interface Scheduled {
        /** Its scheduling state. */
        Schedule schedule();

        /** Nothing to do until a post, bytes or an end, leaving this cycle's sending aside. */
        boolean idle();

        /** Whether its QP holds a posted request the engine has not taken. */
        boolean hasPosted();

        /** Parked or visited again: the QP's posters look at the same flag. */
        void parkedChanged(boolean parked);

        /**
         * When a connection that is not {@linkplain #idle idle} next needs a duty cycle that no
         * socket, post or command brings (the clock's nanoseconds): {@link #NO_TIMER} for never,
         * {@link #POLL} if it cannot say (it is then polled).
         */
        default long deadline() {
            return POLL;
        }
    }

    /** Which sockets have bytes: calls {@code readable} for each (the readiness check). */
    public interface Readiness<C> {
        void selectNow(Consumer<C> readable) throws IOException;
    }

    private final int readinessFrom;
    private final Readiness<C> readiness;
    /** The connections each duty cycle visits: all but the parked ones. */
    private final List<C> active = new ArrayList<>();
    /** Connections parked now: written by the engine thread, read by counter readers. */
    private final AtomicInteger parkedCount = new AtomicInteger();
    private final Consumer<C> markReadable = c -> {
        c.schedule().readable(true);
        unpark(c);
    };
    private boolean wasSelective;
    private long cycle;

    EngineScheduler(int readinessFrom, Readiness<C> readiness) {
        if (readinessFrom < 1) {
            throw new IllegalArgumentException("readinessFrom must be >= 1: " + readinessFrom);
        }
        this.readinessFrom = readinessFrom;
        this.readiness = readiness;
    }

    /** The connections this cycle visits, by index (an end may unpark one while the cycle runs). */
    List<C> active() {
        return active;
    }

    /** A new connection of this thread: visited from the next cycle on. */
    void add(C c) {
        active.add(c);
    }

    /** The connection leaves this thread (moved or gone). */
    void remove(C c) {
        if (!leavesParking(c)) {
            active.remove(c);
        }
    }

    /** What {@code c}'s transmit did this cycle ({@code sent}: FPDUs framed or written; {@code pending}: bytes wait). */
    void transmitted(C c, int sent, boolean pending, long now) {
        Schedule s = c.schedule();
        s.transmitted(sent > 0 || pending);
        if (sent > 0) {
            s.traffic(now);
        }
    }

    /**
     * Decides this cycle's reads among {@link #active()}; {@code connections} is every connection
     * of the thread, parked ones included. Returns whether reads follow readiness (and quiet
     * connections may be parked).
     */
    boolean chooseReads(long now, boolean woke, List<C> connections) {
        if (connections.size() < readinessFrom) {
            if (wasSelective) {
                for (int i = 0; i < connections.size(); i++) {
                    unpark(connections.get(i));         // below the threshold every connection is visited
                }
            }
            wasSelective = false;
            boolean all = woke | ++cycle % QUIET_READ_EVERY == 0;
            boolean lone = connections.size() == 1;
            for (int i = 0; i < active.size(); i++) {
                Schedule s = active.get(i).schedule();
                s.talking(false);
                s.readable(all || s.readEveryCycle(now, lone));
            }
            return false;
        }
        int talking = 0;
        for (int i = 0; i < active.size(); i++) {
            Schedule s = active.get(i).schedule();
            boolean t = s.peerKeepsTalking(now);
            s.talking(t);
            talking += t ? 1 : 0;
        }
        // a few connections whose peers talk are read every cycle, as below the threshold: one
        // read each instead of a readiness check and then the read; the others' readiness is
        // checked in turn meanwhile. Many talking at once are left to readiness, as all are.
        boolean direct = talking > 0 && talking < readinessFrom;
        for (int i = 0; i < active.size(); i++) {
            Schedule s = active.get(i).schedule();
            s.talking(direct && s.talking());
            s.readable(s.talking());
        }
        wasSelective = true;
        if (!direct || woke || ++cycle % QUIET_READ_EVERY == 0) {
            try {
                readiness.selectNow(markReadable);
            } catch (IOException e) {
                throw new java.io.UncheckedIOException("the engine's readiness check failed", e);
            }
        }
        return true;
    }

    /**
     * After {@code c}'s work this cycle ({@code done}): whether it stays among the visited. A
     * connection that did nothing and has nothing to do is parked while reads follow readiness;
     * false if it was.
     */
    boolean stays(C c, int done, boolean selective) {
        return !(selective && done == 0 && quiet(c) && park(c));
    }

    private static boolean quiet(Scheduled c) {
        Schedule s = c.schedule();
        return !s.sending() && !s.talking() && c.idle();
    }

    private boolean park(C c) {
        c.schedule().parked(true);
        c.parkedChanged(true);
        // parked is written before the send queue is read, as a post publishes before it reads
        // parked (JwarpQp#kick): one of the two sees the other's write, and no post is missed
        VarHandle.fullFence();
        if (c.hasPosted()) {
            c.schedule().parked(false);
            c.parkedChanged(false);
            return false;
        }
        c.schedule().readable(false);
        parkedCount.lazySet(parkedCount.get() + 1);
        return true;
    }

    /** A parked connection is visited again, from this duty cycle on. */
    void unpark(C c) {
        if (leavesParking(c)) {
            active.add(c);
        }
    }

    /** Whether {@code c} was parked; if so it is not any more (not yet back in {@link #active}). */
    private boolean leavesParking(C c) {
        Schedule s = c.schedule();
        if (!s.parked()) {
            return false;
        }
        s.parked(false);
        c.parkedChanged(false);
        parkedCount.lazySet(parkedCount.get() - 1);
        return true;
    }

    /** Whether a visited connection has something other than a post or bytes to wait for (a timer). */
    boolean timersRunning() {
        return nextTimer() != NO_TIMER;
    }

    /**
     * The earliest deadline of the visited connections that are not quiet: {@link #NO_TIMER} if
     * none, {@link #POLL} if one of them cannot name its own.
     */
    long nextTimer() {
        long next = NO_TIMER;
        for (int i = 0; i < active.size(); i++) {
            C c = active.get(i);
            if (!quiet(c)) {
                next = Math.min(next, c.deadline());
                if (next == POLL) {
                    return POLL;
                }
            }
        }
        return next;
    }

    /** Connections parked now (any thread). */
    int parkedCount() {
        return parkedCount.get();
    }

    /** Keeps the first {@code size} visited connections (the cycle compacted the list). */
    void truncate(int size) {
        for (int i = active.size() - 1; i >= size; i--) {
            active.remove(i);
        }
    }

    /** Every visited connection is forgotten (device close). */
    void clear() {
        active.clear();
    }
}
