package org.jwarp.engine.runtime;

/**
 * One connection's standing with its engine thread's {@link EngineScheduler}: what it did lately
 * and what the scheduler decided for this duty cycle. The connection reports its traffic here; the
 * scheduler alone reads it and decides. Engine thread only.
 */
public final class Schedule {

    /**
     * How long after its last traffic a connection counts as quiet, and after its last received
     * bytes as deaf. Either is read only in turn while the engine spins.
     */
    public static final long QUIET_AFTER_NANOS = 1_000_000;

    /** A time long past: nothing heard then. */
    private static final long NEVER = Long.MIN_VALUE / 2;

    /** This cycle: read the socket (the scheduler's verdict). */
    private boolean readable = true;
    /** When the stream last sent or received bytes. */
    private long lastTraffic;
    /** When the stream last received bytes, and the time before that. */
    private long lastHeard = NEVER;
    private long heardBefore = NEVER;
    /** When the stream started ({@link #started}). */
    private long startedAt = NEVER;
    /** Whether this cycle sent, or left framed bytes waiting for room in the socket. */
    private boolean sending;
    /** Whether the poster's transmit sent since the last cycle's ({@link EngineWorker#transmitNow}). */
    private boolean sentAhead;
    /** Whether this duty cycle is the one its poster runs right after sending. */
    private boolean posterSent;
    /** Above the readiness threshold, this cycle: read without a readiness check, and not parked. */
    private boolean talking;
    /** Whether the scheduler parked the connection: the duty cycle does not visit it. */
    private boolean parked;

    public boolean readable() {
        return readable;
    }

    public void readable(boolean r) {
        readable = r;
    }

    /** The stream sent bytes at {@code now}. */
    void traffic(long now) {
        lastTraffic = now;
    }

    /** The stream received bytes at {@code now}. */
    public void heard(long now) {
        heardBefore = startedAt == lastHeard ? NEVER : lastHeard;
        lastHeard = now;
        lastTraffic = now;
    }

    /**
     * The stream starts at {@code now}, its setup's last bytes just read (the responder's MPA
     * Request, the initiator's Reply): heard then, so that it is read at once while the first
     * FPDU (the RTR) is due, but the setup's bytes and the RTR are not a peer that keeps talking
     * ({@link #peerKeepsTalking}): a server setting up connections one after another would read
     * each new one every cycle for a while, to find nothing.
     */
    public void started(long now) {
        heard(now);
        startedAt = now;
    }

    /**
     * Whether the peer keeps talking: bytes came in two reads within the last
     * {@link #QUIET_AFTER_NANOS}, so more may come at any time (a ping-pong's next message), where
     * one message alone (a nudge) says nothing of the next. Not in the cycle a poster runs right
     * after its request left.
     */
    boolean peerKeepsTalking(long now) {
        return !posterSent && now - heardBefore < QUIET_AFTER_NANOS;
    }

    /** The poster's transmit, just before a duty cycle, sent: that cycle counts it as its own. */
    void sentAhead() {
        sentAhead = true;
    }

    /** What this cycle's transmit did: sent, or left bytes waiting for room in the socket. */
    void transmitted(boolean sentOrPending) {
        sending = sentOrPending || sentAhead;
        posterSent = sentAhead;
        sentAhead = false;
    }

    boolean sending() {
        return sending;
    }

    boolean talking() {
        return talking;
    }

    void talking(boolean t) {
        talking = t;
    }

    public boolean parked() {
        return parked;
    }

    public void parked(boolean p) {
        parked = p;
    }

    /**
     * Whether the stream is worth a read every duty cycle while the engine spins. Yes while the
     * peer is talking (bytes in the last {@link #QUIET_AFTER_NANOS}). A connection that only sends
     * — one side of a stream of Writes — is not, in the cycles that send and in those between: its
     * reads would come back empty, a system call each. One silent both ways is not either when
     * neighbours share the cycle, so that a busy connection's poll is not slowed by a read of each
     * idle one; a lone one is, since nothing else needs the cycle. The cycle a poster runs right
     * after its request left reads it only in turn: the answer cannot be there yet, and the thread
     * that posted polls again (its polls run the cycles that read).
     */
    boolean readEveryCycle(long now, boolean lone) {
        if (posterSent) {
            return false;
        }
        if (now - lastHeard < QUIET_AFTER_NANOS) {
            return true;
        }
        if (sending || now - lastTraffic < QUIET_AFTER_NANOS) {
            return false;
        }
        return lone;
    }
}
