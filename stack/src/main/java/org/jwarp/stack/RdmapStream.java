package org.jwarp.stack;

import java.lang.foreign.MemorySegment;
import org.jwarp.verbs.CounterSet;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendWr;
import org.jwarp.wire.Wire;
import org.jwarp.wire.mpa.RtrType;
import org.jwarp.wire.rdmap.MpaError;
import org.jwarp.wire.rdmap.TerminateError;

/**
 * The protocol machine of one RDMAP stream — one connected RC queue pair — in full operation
 * (RFC 5040, RFC 5041, RFC 5044 §4). Single-threaded and deterministic: it is driven by
 * {@link #transmit} (work requests → FPDUs), {@link #receive} (stream bytes → placement and
 * completions) and {@link #flush}; it owns no thread, socket or clock, and after
 * {@link #establish} its data path allocates nothing and takes no lock.
 *
 * <p>A facade over parts with one job each, which share a {@link StreamContext}:
 * {@link StreamTransmitter} (the send queue and the responses owed to the peer, as FPDUs),
 * {@link StreamReceiver} with one {@link RxMessage} handler per RDMAP message kind,
 * {@link SgeCursor} (every scatter/gather walk), {@link Completer} (work completions and the flush)
 * and {@link Terminator} (the Terminate and the causes of errors).
 *
 * <p>Transmit: the send queue's requests go out in order, one message at a time (segments of two
 * messages never interleave, reference §4.5), cut at MULPDU and at scatter/gather boundaries; a
 * fenced request waits for outstanding Reads (RFC 5040 §5.5); Reads wait for ORD credit. Read
 * Responses for the peer's Read Requests are generated here, with no application thread, ahead of
 * new send-queue work. A Send or Write completes when its last FPDU is handed to the LLP (RFC
 * 5040 §5.5: local completion means "handed to the LLP"); a Read when its response is placed.
 *
 * <p>Receive: every tagged segment is checked (STag, key, protection domain, access rights,
 * bounds, wrap) before one byte is placed; untagged segments go into the posted receives in MSN
 * order. Any violation queues the RFC's Terminate (first error wins, RFC 5040 §7.1), which is the
 * last message sent; the stream then enters the error state and every outstanding request
 * completes — with the mapped status if the peer's Terminate names it, else flushed.
 */
public final class RdmapStream {

    /** Lifecycle of the stream. */
    public enum State {
        /** Created; connection setup not finished. */
        IDLE,
        /** Full operation. */
        RTS,
        /** A Terminate is queued; nothing else will be sent or placed. */
        TERMINATING,
        /** Stopped: Terminate sent or received, or the connection was lost. Work is flushed. */
        ERROR
    }

    /** Messages {@link #recentSegmentPayload()} looks back over. */
    public static final int RECENT_MESSAGES = StreamReceiver.RECENT_MESSAGES;

    private final StreamContext s;

    public RdmapStream(int qpNum, int pd, StagTable stags, WorkQueue<SendWr> sendQueue, WorkQueue<RecvWr> recvQueue,
                       CompletionSink sendCq, CompletionSink recvCq, boolean signalAll, int maxSge,
                       CounterSet counters) {
        this.s = new StreamContext(qpNum, pd, stags, sendQueue, recvQueue, sendCq, recvCq, signalAll, maxSge, counters);
    }

    /**
     * Enters full operation with what connection setup negotiated. {@code rxStreamPosition} is the
     * position of the first byte {@link #receive} will see, counted from the start of full
     * operation (for markers; 0 normally).
     */
    public void establish(StreamParameters p, long rxStreamPosition) {
        if (s.state != State.IDLE) {
            throw new IllegalStateException("stream already established (state " + s.state + ")");
        }
        s.params = p;
        s.orq = new OutboundReadQueue(Math.max(1, p.ord()));
        s.irq = new InboundReadQueue(Math.max(1, p.ird()));
        s.decoder.start(p.crc(), p.markersRx(), p.rfc7306(), rxStreamPosition);
        s.state = State.RTS;
    }

    /**
     * Turns the small-message path on or off (on by default): an FPDU that lies whole in a window
     * of received bytes is checked and its headers read in place in one step, and
     * {@link #sendDirect} takes one-FPDU requests. The bytes on the wire and every rule are the
     * same either way.
     */
    public void smallMessagePath(boolean on) {
        s.decoder.wholeFpduPath(on);
        s.directSend = on;
    }

    public State state() {
        return s.state;
    }

    public int qpNum() {
        return s.qpNum;
    }

    public StreamParameters parameters() {
        return s.params;
    }

    /** The Terminate this side queued or sent, or null. */
    public TerminateError terminateCause() {
        return s.terminator.cause();
    }

    /** The Terminate Control bits (layer, type, code) the peer sent, or -1. */
    public int peerTerminate() {
        return s.terminator.peerTerminate();
    }

    /** Completions that found their completion queue full and were dropped. */
    public long cqOverruns() {
        return s.completer.cqOverruns();
    }

    /** True once nothing more will be sent: the owner may close the connection gracefully. */
    public boolean finished() {
        return s.state == State.ERROR;
    }

    /**
     * Initiator in peer-to-peer mode (RFC 6581 §5, §9.3): the zero-length RTR message goes out
     * before anything else. A Send RTR uses Send MSN 1 and a Read RTR Read MSN 1 (and an ORD
     * credit until its zero-length Response arrives); a Write RTR uses STag 1 and TO 0, as siw does.
     */
    public void queueRtr(RtrType type) {
        s.tx.queueRtr(type);
    }

    /**
     * Responder: RFC 5044 §7.1.2 rule 4 (and RFC 6581's RTR) — send nothing until the first FPDU
     * from the initiator has been received and validated.
     */
    public void holdTransmitUntilFirstFpdu() {
        s.txHeldForFirstFpdu = true;
    }

    /**
     * Responder: lets transmission start before the initiator's first FPDU (see the engine's
     * responder grace: an initiator that asked for no RTR and stays silent waits for us).
     */
    public void releaseTransmitHold() {
        s.txHeldForFirstFpdu = false;
    }

    /** FPDUs received whole (CRC good) since full operation began. */
    public long fpdusReceived() {
        return s.fpdusReceived;
    }

    /** FPDUs handed to the LLP since full operation began. */
    public long fpdusSent() {
        return s.tx.fpdusSent();
    }

    /**
     * Queues a zero-length RDMA Write (STag 1, TO 0, as the Write RTR) at the next message boundary.
     * A zero-length tagged message places nothing and its STag and TO are not checked (RFC 5041
     * §5.2), so any peer takes it without effect. The engine sends one when a peer stays silent
     * after our first FPDUs: Linux siw (6.1) sends its MPA Reply before it moves the socket under its
     * QP's receive path, and an FPDU that arrives in between lies unread until more bytes arrive.
     */
    public void queueNudge() {
        if (s.tx.rtrPending() == null) {
            s.tx.queueRtr(RtrType.WRITE);
        }
    }

    /**
     * Runs {@code action} once the first FPDU received in full operation has been processed, before
     * any FPDU behind it in the same bytes: a responder whose RTR arrived is connected (RFC 6581
     * §9.2) before the messages that follow the RTR complete, so that an application answering a
     * completion finds its queue pair ready to send. Setup only.
     */
    public void onFirstFpdu(Runnable action) {
        s.firstFpduEnded = action;
    }

    /** True while an RTR is queued and not yet handed to the LLP. */
    public boolean rtrPending() {
        return s.tx.rtrPending() != null;
    }

    /** Outstanding outbound Read Requests (for tests and counters). */
    public int outstandingReads() {
        return s.orq == null ? 0 : s.orq.size();
    }

    /** Hands as many FPDUs to {@code sink} as it has room for; returns how many. */
    public int transmit(FpduSink sink) {
        return s.tx.transmit(sink);
    }

    /**
     * Frames {@code wr}, a one-FPDU Write or Send posted while nothing else is to be sent, into
     * {@code sink} now (see {@code StreamTransmitter#sendDirect}); false, having done nothing, if it
     * must take the send queue. The caller holds the stream as for {@link #transmit}.
     */
    public boolean sendDirect(SendWr wr, FpduSink sink) {
        return s.tx.sendDirect(wr, sink);
    }

    /**
     * The owner wrote the first {@code bytesWritten} framed bytes (the sink's barrier count) to the
     * socket: the completions waiting for them are published, in order.
     */
    public void released(long bytesWritten) {
        s.completer.released(bytesWritten);
    }

    /**
     * Processes {@code length} stream bytes at {@code in[offset]}: every byte is consumed (partial
     * FPDUs are kept). Bytes after a Terminate (sent or received) are discarded (DESIGN rule 5).
     * Returns the number of FPDUs completed.
     */
    public int receive(MemorySegment in, long offset, long length) {
        return s.rx.receive(in, offset, length);
    }

    /**
     * The LLP failed or the peer closed (RFC 5044 §8, MPA error 1): nothing can be sent any more,
     * so no Terminate; every outstanding request is flushed.
     */
    public void connectionLost() {
        if (s.state == State.ERROR) {
            return;
        }
        s.terminator.connectionLost(MpaError.TCP_CONNECTION_CLOSED);
        s.enterError();
    }

    /**
     * Where the rest of the current segment's payload may be placed by the owner reading it from
     * the LLP straight into the target (zero-copy receive), or an empty placement
     * ({@link DirectPlacement#length()} 0). Non-empty only when every byte fed to {@link #receive}
     * has been decoded and the stream is inside the payload of a segment that passed its
     * placement checks — for a tagged segment STag, key, protection domain, access rights and
     * bounds (RFC 5041 §7.1, RFC 5040 §7), for an untagged one the queue number, MSN, MO, a posted
     * receive and its length — so that no byte lands anywhere a check would have refused. The
     * payload may still fail its CRC: as with any placement before the FPDU is validated
     * (RFC 5044 §4.4, §8), nothing completes before {@link #receive} has seen the CRC, and a bad
     * one terminates the stream.
     *
     * <p>The last byte of a Write is held back (counted in {@link DirectPlacement#trailer()}): it
     * is stored by {@link #receive} after a release fence, so that a poller of the last byte sees
     * the whole message (DESIGN). Markers bound a placement to the next marker.
     */
    public DirectPlacement directPlacement() {
        return s.rx.directPlacement();
    }

    /**
     * The owner read {@code length} bytes of the last {@link #directPlacement()} from the LLP into
     * its pieces, in order: they enter the CRC and the stream as if {@link #receive} had seen them.
     *
     * @throws IllegalArgumentException if more than the placement offered
     */
    public void placedDirectly(long length) {
        s.rx.placedDirectly(length);
    }

    /**
     * The largest segment payload among the last {@link #RECENT_MESSAGES} messages received (the
     * one in progress included): a hint for an owner choosing how much to read ahead — a peer
     * that sent large messages is likely to send more, small control messages in between (a Read
     * Request, an Immediate Data message) notwithstanding.
     */
    public int recentSegmentPayload() {
        return s.rx.recentSegmentPayload();
    }

    /** True while the payload of a segment is only partly received. */
    public boolean insidePayload() {
        return s.decoder.payloadRemaining() > 0;
    }

    /**
     * In the error state, completes everything posted so far with
     * {@link org.jwarp.verbs.WcStatus#WR_FLUSH_ERR} (requests posted after the error included: the
     * engine calls this from its duty cycle). Returns the number of requests flushed.
     */
    public int flush() {
        return s.state == State.ERROR ? s.completer.flush() : 0;
    }

    @Override
    public String toString() {
        TerminateError cause = s.terminator.cause();
        int peer = s.terminator.peerTerminate();
        return "RdmapStream[qp " + s.qpNum + ", " + s.state + (cause == null ? "" : ", " + cause)
                + (peer < 0 ? "" : ", peer terminate " + Wire.hex(MemorySegment.ofArray(
                new byte[] {(byte) (peer >>> 24), (byte) (peer >>> 16)}), 0, 2)) + "]";
    }
}
