package org.jwarp.engine.cm;

import java.util.Iterator;
import java.util.concurrent.ConcurrentLinkedDeque;
import java.util.concurrent.atomic.AtomicInteger;
import org.jwarp.sys.NanoClock;

/**
 * Who may hold a listener's resources while a connection is being set up. The kernel keeps half-open
 * connections (its SYN queue, with SYN cookies) apart from the connections the application has yet
 * to take (its accept queue, the backlog); a listener keeps the same apart in three stages:
 *
 * <ol>
 *   <li><b>unidentified</b>: TCP accepted, no complete MPA Request yet. Bounded on its own
 *       ({@code maxUnidentified}, large), never counted against the backlog. Under pressure (more
 *       than an eighth of the bound) any older than {@code pressureTimeoutNanos} is dropped; when
 *       the bound itself is reached the oldest is dropped for the newcomer. A silent flood therefore costs
 *       the next client nothing: it sends its Request at once and leaves this stage.</li>
 *   <li><b>deciding</b>: the Request was handed to the application ({@code ConnectRequest}), which
 *       has not accepted or rejected it. Only these count against the application's backlog. A
 *       complete Request that finds the backlog full waits in the first stage (with its bound and
 *       its pressure timeout, and the MPA decision timer running) until a decision gives a place
 *       back, as a kernel leaves a connection in its SYN queue while the accept queue is full.</li>
 *   <li><b>replied</b>: accepted, the Reply sent, the peer's RTR (RFC 6581) or first FPDU not yet
 *       here. Bounded and timed out under pressure as the first stage, oldest dropped first.</li>
 * </ol>
 *
 * <p>A stage is under pressure above an eighth of its bound, and never below the backlog: as
 * many setups as the application said it expects at once (a client opening thousands of
 * connections, many in flight, on a loaded machine) are not dropped for being slow.
 *
 * <p>RFC 5044 §7.1.2 rule 6 asks for timers on the startup frames so that a silent peer cannot hold
 * resources; the MPA timeouts remain the rule when there is no pressure. Stages are entered and
 * left on the connection's engine thread; the acceptor thread makes room before each new
 * connection. A dropped connection is told through {@link Candidate#evict}, which must carry the
 * end out on its own engine thread.
 *
 * @param <C> what a stage holds (a responder's setup)
 */
final class SetupAdmission<C extends SetupAdmission.Candidate> {

    /** Default bound of unidentified connections per listener. */
    static final int MAX_UNIDENTIFIED = 8192;
    /** Default bound of connections that were replied to and have not yet sent their RTR. */
    static final int MAX_REPLIED = 1024;
    /** A stage is under pressure above this share of its bound (1/8). */
    static final int PRESSURE_SHARE = 8;
    /** The kernel's accept queue a listener asks for (the kernel caps it at {@code net.core.somaxconn}). */
    static final int KERNEL_ACCEPT_QUEUE = 4096;
    /** Under pressure, the longest a connection may stay in the first or third stage. */
    static final long PRESSURE_TIMEOUT_NANOS = 1_000_000_000L;

    /** A connection in setup as admission sees it. */
    interface Candidate {
        /** When it entered its current stage (the admission's clock). */
        long stageSince();

        /** Ends the setup, on the connection's own engine thread, with {@code reason}. */
        void evict(String reason);
    }

    private final Stage unidentified;
    private final Stage replied;
    private final AtomicInteger deciding = new AtomicInteger();
    private final int backlog;
    private final NanoClock clock;

    SetupAdmission(int backlog, int maxUnidentified, int maxReplied, int pressureShare, long pressureTimeoutNanos,
                   NanoClock clock) {
        if (backlog < 1 || maxUnidentified < 2 || maxReplied < 2 || pressureShare < 1 || pressureTimeoutNanos <= 0) {
            throw new IllegalArgumentException("admission bounds must be positive (backlog " + backlog + ", "
                    + maxUnidentified + " unidentified, " + maxReplied + " replied)");
        }
        this.backlog = backlog;
        this.clock = clock;
        // as many setups as the backlog admits are the application's expected load, not pressure
        this.unidentified = new Stage("had not sent a complete MPA Request", maxUnidentified,
                Math.max(maxUnidentified / pressureShare, Math.min(backlog, maxUnidentified - 1)), pressureTimeoutNanos);
        this.replied = new Stage("had not sent their RTR after our MPA Reply", maxReplied,
                Math.max(maxReplied / pressureShare, Math.min(backlog, maxReplied - 1)), pressureTimeoutNanos);
    }

    static <C extends Candidate> SetupAdmission<C> withDefaults(int backlog, NanoClock clock) {
        return new SetupAdmission<>(Math.max(1, backlog), MAX_UNIDENTIFIED, Math.max(MAX_REPLIED, 2 * backlog),
                PRESSURE_SHARE,
                PRESSURE_TIMEOUT_NANOS, clock);
    }

    long now() {
        return clock.nanoTime();
    }

    /** Acceptor thread, before a new connection is handed over: drop what the bounds and the pressure say. */
    int makeRoom() {
        long now = clock.nanoTime();
        return unidentified.makeRoom(now) + replied.makeRoom(now);
    }

    /** Engine thread: a new connection, TCP accepted. */
    void enterUnidentified(C c) {
        unidentified.add(c);
    }

    /**
     * Engine thread: {@code c}'s Request is complete. Returns true if it may go to the application
     * (it then counts against the backlog and leaves the first stage), false if the backlog is full:
     * it stays in the first stage, and its engine thread asks again in a later duty cycle.
     */
    boolean requestComplete(C c) {
        while (true) {
            int d = deciding.get();
            if (d >= backlog) {
                return false;
            }
            if (deciding.compareAndSet(d, d + 1)) {
                unidentified.remove(c);
                return true;
            }
        }
    }

    /** Engine thread: the application decided on a request that {@link #requestComplete} let through. */
    void decided() {
        deciding.decrementAndGet();
    }

    /** Engine thread: accepted; the Reply is on its way and the peer's RTR is awaited. */
    void enterReplied(C c) {
        replied.add(c);
    }

    /** Engine thread: {@code c} left the first or third stage (established, failed, closed). */
    void left(C c) {
        if (!unidentified.remove(c)) {
            replied.remove(c);
        }
    }

    int unidentified() {
        return unidentified.size.get();
    }

    int deciding() {
        return deciding.get();
    }

    int replied() {
        return replied.size.get();
    }

    int backlog() {
        return backlog;
    }

    /** One bounded stage: its members in the order they entered it. */
    private final class Stage {
        private final String what;
        private final int max;
        private final int pressureFrom;
        private final long pressureTimeoutNanos;
        private final ConcurrentLinkedDeque<C> members = new ConcurrentLinkedDeque<>();
        private final AtomicInteger size = new AtomicInteger();

        Stage(String what, int max, int pressureFrom, long pressureTimeoutNanos) {
            this.what = what;
            this.max = max;
            this.pressureFrom = pressureFrom;
            this.pressureTimeoutNanos = pressureTimeoutNanos;
        }

        void add(C c) {
            members.addLast(c);
            size.incrementAndGet();
        }

        boolean remove(C c) {
            if (members.removeFirstOccurrence(c)) {
                size.decrementAndGet();
                return true;
            }
            return false;
        }

        /** Drops the oldest while the stage is full, then, under pressure, those past the pressure timeout. */
        int makeRoom(long now) {
            int dropped = 0;
            while (size.get() >= max) {
                C oldest = members.pollFirst();
                if (oldest == null) {
                    break;
                }
                size.decrementAndGet();
                oldest.evict("dropped: " + max + " connections " + what + ", and the oldest goes first");
                dropped++;
            }
            if (size.get() > pressureFrom) {
                for (Iterator<C> it = members.iterator(); it.hasNext(); ) {
                    C c = it.next();
                    if (now - c.stageSince() < pressureTimeoutNanos) {
                        break;                         // the rest are younger
                    }
                    if (members.removeFirstOccurrence(c)) {
                        size.decrementAndGet();
                        c.evict("timed out after " + pressureTimeoutNanos / 1_000_000 + " ms: more than " + pressureFrom
                                + " connections " + what);
                        dropped++;
                    }
                }
            }
            return dropped;
        }
    }
}
