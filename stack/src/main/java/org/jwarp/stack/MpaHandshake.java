package org.jwarp.stack;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.Optional;
import org.jwarp.wire.mpa.MpaCompletion;
import org.jwarp.wire.mpa.MpaFrameReader;
import org.jwarp.wire.mpa.MpaFrameType;
import org.jwarp.wire.mpa.MpaMessage;
import org.jwarp.wire.mpa.MpaNegotiation;
import org.jwarp.wire.mpa.MpaParameters;
import org.jwarp.wire.mpa.MpaPolicy;
import org.jwarp.wire.mpa.MpaResponse;
import org.jwarp.wire.rdmap.MpaError;

/**
 * MPA connection setup on one TCP connection (RFC 5044 §7.1, RFC 6581): the exchange of the
 * Request and the Reply, driven by calls — bytes in ({@link #onBytes}), bytes out
 * ({@link #output()}), the ULP's decision ({@link #accept}/{@link #reject}) and time
 * ({@link #onTime}, an injected clock) — so it is tested without sockets or sleeping.
 *
 * <p>Rules it keeps: the initiator sends its Request and then nothing until the Reply has arrived;
 * the responder answers a malformed Request by closing with no Reply (RFC 5044 §7.1.2 rule 2), a
 * refused one with an R=1 Reply; bytes the initiator queues behind its Request are a protocol
 * error (siw treats them so, reference §8); each wait is bounded (RFC 5044 §7.1.2 rule 6) so a
 * silent peer cannot hold resources — siw's values are 10 s for the Reply and 5 s for the Request.
 * After the Reply, bytes that follow it belong to full operation and are left for the stream.
 */
public final class MpaHandshake {

    /** Where the handshake is. */
    public enum Phase {
        /** Responder: waiting for the Request. */
        AWAIT_REQUEST,
        /** Responder: the Request is valid; the ULP must accept or reject it. */
        AWAIT_DECISION,
        /** Initiator: the Request is sent; waiting for the Reply. */
        AWAIT_REPLY,
        /** Both sides agreed: full operation may start (after the RTR, if one was negotiated). */
        ESTABLISHED,
        /** One side refused (R=1 Reply sent or received). */
        REJECTED,
        /** A protocol error or a timeout: close the connection. */
        FAILED
    }

    private final boolean initiator;
    private MpaPolicy policy;
    private final MpaFrameReader reader;
    private Phase phase;
    private MpaMessage request;
    private byte[] output = new byte[0];
    private long deadline;
    private final long decisionTimeoutNanos;
    private MpaParameters parameters;
    private String failure;
    private boolean timedOut;
    private MpaError terminate;
    private byte[] peerPrivateData = new byte[0];

    private MpaHandshake(boolean initiator, MpaPolicy policy, long deadline, long decisionTimeoutNanos) {
        this.initiator = initiator;
        this.policy = policy;
        this.deadline = deadline;
        this.decisionTimeoutNanos = decisionTimeoutNanos;
        this.reader = new MpaFrameReader(initiator ? MpaFrameType.REPLY : MpaFrameType.REQUEST);
    }

    /** The active side: its Request is ready in {@link #output()} at once. */
    public static MpaHandshake initiator(MpaPolicy policy, byte[] privateData, long nowNanos, Duration replyTimeout) {
        MpaHandshake h = new MpaHandshake(true, policy, nowNanos + replyTimeout.toNanos(), 0);
        h.request = MpaNegotiation.request(policy, privateData);
        h.output = h.request.toBytes();
        h.phase = Phase.AWAIT_REPLY;
        return h;
    }

    /** The passive side, from the moment TCP accepted the connection. */
    public static MpaHandshake responder(MpaPolicy policy, long nowNanos, Duration requestTimeout,
                                         Duration decisionTimeout) {
        MpaHandshake h = new MpaHandshake(false, policy, nowNanos + requestTimeout.toNanos(),
                decisionTimeout.toNanos());
        h.phase = Phase.AWAIT_REQUEST;
        return h;
    }

    public Phase phase() {
        return phase;
    }

    public boolean isInitiator() {
        return initiator;
    }

    /** Bytes to write to the socket now (the Request or the Reply); empty if none. */
    public byte[] output() {
        return output;
    }

    /** The caller wrote everything {@link #output()} returned. */
    public void outputWritten() {
        output = new byte[0];
    }

    /** Responder: the peer's Request (valid once the phase is AWAIT_DECISION or later). */
    public MpaMessage request() {
        return request;
    }

    /** What was negotiated (ESTABLISHED only). */
    public MpaParameters parameters() {
        return parameters;
    }

    /** The peer's private data: the Request's (responder) or the Reply's (initiator). */
    public byte[] peerPrivateData() {
        return peerPrivateData.clone();
    }

    /** Why the handshake failed or was rejected, in words for the user. */
    public String failure() {
        return failure;
    }

    /** True if the handshake failed because a wait outlived its timeout ({@link #onTime}). */
    public boolean timedOut() {
        return timedOut;
    }

    /** The MPA error RFC 6581 says to send in a Terminate before closing, if any. */
    public Optional<MpaError> terminate() {
        return Optional.ofNullable(terminate);
    }

    /**
     * Takes received bytes; returns how many belong to the handshake. The rest (after the Reply,
     * on the initiator) are the peer's first FPDUs, for the stream.
     */
    public long onBytes(MemorySegment in, long offset, long length, long nowNanos) {
        if (phase != Phase.AWAIT_REPLY && phase != Phase.AWAIT_REQUEST) {
            if (length > 0 && phase == Phase.AWAIT_DECISION) {
                // RFC 5044 §7.1.2: the initiator MUST NOT send until it has the Reply
                fail("the peer sent data before our MPA Reply", null);
            }
            return 0;
        }
        MpaFrameReader.Status status = reader.feed(in, offset, length);
        long used = reader.consumed();
        switch (status) {
            case NEED_MORE -> {
                return used;
            }
            case INVALID -> {
                // RFC 5044 §7.1.2 rule 2 and 3: a malformed frame closes the connection, no Reply.
                fail("invalid MPA " + (initiator ? "Reply" : "Request") + ": "
                        + reader.invalidReason().description(reader.expected()),
                        initiator ? MpaError.INVALID_REQUEST_OR_REPLY : null);
                return used;
            }
            default -> {
                MpaMessage frame = MpaMessage.decode(reader.frame());
                peerPrivateData = frame.privateData();
                if (initiator) {
                    onReply(frame);
                } else {
                    onRequest(frame, used < length, nowNanos);
                }
                return used;
            }
        }
    }

    private void onRequest(MpaMessage frame, boolean bytesBehind, long nowNanos) {
        request = frame;
        if (bytesBehind) {
            fail("the peer sent data behind its MPA Request, before our Reply", null);
            return;
        }
        Optional<MpaResponse.Reject> refusal = MpaNegotiation.check(policy, frame);
        if (refusal.isPresent()) {
            // valid but unacceptable to MPA itself (markers, CRC, revision, IRD): R=1 Reply
            output = refusal.get().reply().toBytes();
            phase = Phase.REJECTED;
            failure = refusal.get().message();
            terminate = refusal.get().error().orElse(null);
            return;
        }
        phase = Phase.AWAIT_DECISION;
        deadline = nowNanos + decisionTimeoutNanos;
    }

    private void onReply(MpaMessage reply) {
        switch (MpaNegotiation.complete(policy, request, reply)) {
            case MpaCompletion.Established e -> {
                parameters = e.parameters();
                phase = Phase.ESTABLISHED;
            }
            case MpaCompletion.Failed f -> {
                failure = f.message();
                terminate = f.terminate().orElse(null);
                phase = f.reason() == MpaCompletion.Reason.PEER_REJECTED ? Phase.REJECTED : Phase.FAILED;
            }
        }
    }

    /** Responder: the ULP accepts; the Reply goes out with its private data. */
    public void accept(byte[] replyPrivateData) {
        accept(replyPrivateData, policy);
    }

    /**
     * Responder: the ULP accepts with a policy of its own for this connection — its IRD and ORD
     * (rdma_accept's responder resources and initiator depth), which the Reply carries as RFC 6581
     * §9.1 adjusts them. The Request was checked against the listener's policy; the two differ
     * only in IRD/ORD.
     */
    public void accept(byte[] replyPrivateData, MpaPolicy acceptPolicy) {
        requirePhase(Phase.AWAIT_DECISION);
        this.policy = acceptPolicy;
        switch (MpaNegotiation.respond(policy, request, true, replyPrivateData)) {
            case MpaResponse.Accept a -> {
                output = a.reply().toBytes();
                parameters = a.parameters();
                phase = Phase.ESTABLISHED;
            }
            case MpaResponse.Reject r -> {
                output = r.reply().toBytes();
                failure = r.message();
                terminate = r.error().orElse(null);
                phase = Phase.REJECTED;
            }
        }
    }

    /** Responder: the ULP refuses; an R=1 Reply carries its private data (RFC 5044 §7.1.2 rule 2). */
    public void reject(byte[] replyPrivateData) {
        requirePhase(Phase.AWAIT_DECISION);
        MpaResponse response = MpaNegotiation.respond(policy, request, false, replyPrivateData);
        output = ((MpaResponse.Reject) response).reply().toBytes();
        failure = "rejected by the application";
        phase = Phase.REJECTED;
    }

    /**
     * Advances time. A wait that outlived its timeout fails the handshake (RFC 5044 §7.1.2 rule 6).
     * The decision timeout runs from the Request's arrival.
     */
    public void onTime(long nowNanos) {
        if ((phase == Phase.AWAIT_REQUEST || phase == Phase.AWAIT_REPLY || phase == Phase.AWAIT_DECISION)
                && nowNanos - deadline >= 0) {
            timedOut = true;
            fail(switch (phase) {
                case AWAIT_REQUEST -> "no MPA Request arrived in time";
                case AWAIT_REPLY -> "no MPA Reply arrived in time";
                default -> "the application did not accept or reject the connection in time";
            }, null);
        }
    }

    /** The next instant at which {@link #onTime} has something to do. */
    public long deadline() {
        return deadline;
    }

    private void fail(String why, MpaError error) {
        failure = why;
        terminate = error;
        phase = Phase.FAILED;
        output = new byte[0];
    }

    private void requirePhase(Phase expected) {
        if (phase != expected) {
            throw new IllegalStateException("MPA handshake is " + phase + ", not " + expected);
        }
    }
}
