package org.jwarp.wire.mpa;

import java.util.EnumSet;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import org.jwarp.wire.rdmap.MpaError;

/**
 * MPA connection-setup negotiation (RFC 5044 §7.1, RFC 6581 §6-§9) as pure functions of the
 * frames and our {@link MpaPolicy}: build the Request, decide the Reply, conclude from the Reply.
 * No state, no I/O; the connection manager drives it and owns timeouts and sockets.
 *
 * <p>The rules, and where the RFCs leave room, the choices made here:
 * <ul>
 *   <li><b>M</b>, per direction (RFC 5044 §7.1.1): the peer's M=1 means we insert markers in what
 *       we send; our M=1 means the peer does. We refuse M=1 only if our sender cannot generate
 *       markers.</li>
 *   <li><b>C</b> (RFC 5044 §4.4): CRC runs iff C=1 in either frame. The responder echoes a C=1
 *       Request (as siw does), so the Reply states the outcome. Only a policy that refuses CRC
 *       can fail on it.</li>
 *   <li><b>Revision</b> (RFC 6581 §6): the Reply carries the Request's Rev, enhanced answering
 *       enhanced and plain answering plain.</li>
 *   <li><b>IRD/ORD</b> (RFC 6581 §9.1): the responder lowers its ORD to the initiator's IRD and
 *       reports its actual IRD; 0x3FFF on either side leaves that pair to the ULP. An initiator
 *       ORD above our IRD is either tolerated (relaxed: the initiator must lower its ORD, as
 *       RFC 6581 §9.1 lets it) or rejected with INSUFFICIENT_IRD, per policy.</li>
 *   <li><b>RTR</b> (RFC 6581 §9.2, §9.3): the responder picks exactly one option so that the
 *       initiator has no choice left and the responder knows which zero-length message to
 *       expect; order Write, Read, Send ({@link RtrType}). A zero-length Read RTR raises a zero
 *       IRD (responder) or ORD (initiator) to 1.</li>
 * </ul>
 */
public final class MpaNegotiation {

    private static final int NONE = MpaV2Header.NO_NEGOTIATION;
    private static final byte[] NO_DATA = new byte[0];

    private MpaNegotiation() {
    }

    // ---- initiator: the Request -----------------------------------------------------------

    /**
     * The Request this policy sends, with the ULP's private data after the enhanced header.
     *
     * @throws IllegalArgumentException if the private data does not fit the policy's cap
     */
    public static MpaMessage request(MpaPolicy policy, byte[] ulpPrivateData) {
        MpaV2Header header = null;
        if (policy.enhanced()) {
            boolean p2p = policy.peerToPeer();
            Set<RtrType> rtr = policy.rtrTypes();
            // RFC 6581 §9.2: the initiator sets B, C, D for every RTR it can send; with A=0 they
            // MUST be 0.
            header = new MpaV2Header(p2p, p2p && rtr.contains(RtrType.SEND), policy.ird(),
                    p2p && rtr.contains(RtrType.WRITE), p2p && rtr.contains(RtrType.READ),
                    policy.ord());
        }
        checkFits(policy, header, ulpPrivateData);
        // RFC 5044 §7.1.1: R is 0 in a Request; reserved bits are 0.
        return MpaMessage.of(MpaFrameType.REQUEST, policy.markersWanted(), policy.crc().sendsC(),
                false, policy.revision(), header, ulpPrivateData);
    }

    // ---- responder: the Reply -------------------------------------------------------------

    /**
     * The protocol-level verdict on a Request before the ULP is asked: empty if it can be
     * accepted, else the Reject to send. Same as {@code respond(policy, request, true, none)}
     * when that rejects.
     */
    public static Optional<MpaResponse.Reject> check(MpaPolicy policy, MpaMessage request) {
        return respond(policy, request, true, NO_DATA) instanceof MpaResponse.Reject r
                ? Optional.of(r) : Optional.empty();
    }

    /**
     * Decides the Reply to {@code request}. Protocol checks come first (a Request we cannot serve
     * is refused whatever the ULP says), then the ULP's decision.
     *
     * @param ulpAccepts whether the ULP accepts the connection (and the Request's private data)
     * @param replyPrivateData the ULP's private data for the Reply, accepting or rejecting
     * @throws IllegalArgumentException if {@code request} is not a Request or the reply private
     *     data exceeds the policy's cap
     */
    public static MpaResponse respond(MpaPolicy policy, MpaMessage request, boolean ulpAccepts,
            byte[] replyPrivateData) {
        Objects.requireNonNull(replyPrivateData, "replyPrivateData");
        if (request.type() != MpaFrameType.REQUEST) {
            throw new IllegalArgumentException("not an MPA Request: " + request);
        }
        boolean replyC = request.crc() || policy.crc().sendsC();

        // RFC 5044 §7.1.1: a receiver that cannot work with the peer's revision closes. We answer
        // with an R=1 Reply in the revision we do speak, which tells an RFC 6581 §10 initiator to
        // retry with Rev 1.
        if (request.revision() > policy.revision()) {
            MpaMessage reply = MpaMessage.of(MpaFrameType.REPLY, false, replyC, true,
                    policy.revision(), null, NO_DATA);
            return new MpaResponse.Reject(reply, MpaResponse.Reason.UNSUPPORTED_REVISION,
                    Optional.empty(), "MPA revision " + request.revision()
                            + " requested, this side speaks revision " + policy.revision());
        }

        // RFC 6581 §6: an enhanced Request gets an enhanced Reply, a plain one a plain Reply.
        MpaV2Header peer = request.enhancedHeader();
        boolean enhanced = peer != null;
        boolean p2p = enhanced && peer.peerToPeer();
        // Header for Replies that refuse before IRD/ORD and RTR were settled: A copied (RFC 6581
        // §9.2), our own IRD/ORD, no RTR option.
        MpaV2Header refusalHeader = enhanced
                ? new MpaV2Header(p2p, false, policy.ird(), false, false, policy.ord()) : null;

        // RFC 5044 §4.3: a sender MUST be able to insert markers when the peer asks; one that
        // cannot refuses the connection (R=1, M cleared: we never claim markers on a reject).
        if (request.markers() && !policy.canGenerateMarkers()) {
            return reject(request, replyC, refusalHeader, NO_DATA,
                    MpaResponse.Reason.MARKERS_NOT_SUPPORTED, Optional.empty(),
                    "peer requires markers, which this side cannot generate");
        }
        // RFC 5044 §4.4: C=1 in the Request turns CRC on; a policy that refuses CRC must reject.
        if (request.crc() && policy.crc() == MpaPolicy.CrcPolicy.REFUSED) {
            return reject(request, false, refusalHeader, NO_DATA, MpaResponse.Reason.CRC_REFUSED,
                    Optional.empty(), "peer requires CRC, which this side's policy refuses");
        }

        Optional<RtrType> rtr = Optional.empty();
        if (p2p) {
            // RFC 6581 §9.2: pick an offered option we support; if none, set one we support (the
            // initiator then terminates with NO_MATCHING_RTR). Supporting none at all: refuse.
            rtr = choose(peer.rtrTypes(), policy.rtrTypes());
            if (rtr.isEmpty()) {
                rtr = choose(EnumSet.allOf(RtrType.class), policy.rtrTypes());
            }
            if (rtr.isEmpty()) {
                return reject(request, replyC, refusalHeader, NO_DATA,
                        MpaResponse.Reason.NO_MATCHING_RTR, Optional.of(MpaError.NO_MATCHING_RTR),
                        "peer asked for the peer-to-peer model and this side accepts no RTR");
            }
        }

        int ird = policy.ird();
        int ord = policy.ord();
        int replyIrd = NONE;
        int replyOrd = NONE;
        if (enhanced) {
            // RFC 6581 §9.1: responder ORD <= initiator IRD. An initiator IRD of 0x3FFF leaves it
            // to the ULP: keep our ORD and answer 0x3FFF.
            if (peer.ird() != NONE && policy.ord() != NONE) {
                ord = Math.min(policy.ord(), peer.ird());
                replyOrd = ord;
            }
            // RFC 6581 §9.1: responder IRD >= initiator ORD. An initiator ORD of 0x3FFF: keep our
            // IRD and answer 0x3FFF.
            if (peer.ord() != NONE && policy.ird() != NONE) {
                if (peer.ord() > policy.ird() && !policy.relaxedIrd()) {
                    return reject(request, replyC, refusalHeader, NO_DATA,
                            MpaResponse.Reason.INSUFFICIENT_IRD,
                            Optional.of(MpaError.INSUFFICIENT_IRD),
                            "peer wants ORD " + peer.ord() + " but this side provides IRD "
                                    + policy.ird());
                }
                replyIrd = ird;
            }
            // RFC 6581 §9.1: the responder may raise IRD to 1 so that a zero-length Read RTR can
            // be served.
            if (rtr.equals(Optional.of(RtrType.READ)) && ird == 0) {
                ird = 1;
                if (replyIrd != NONE) {
                    replyIrd = 1;
                }
            }
        }
        MpaV2Header header = enhanced
                ? new MpaV2Header(p2p, rtr.equals(Optional.of(RtrType.SEND)), replyIrd,
                        rtr.equals(Optional.of(RtrType.WRITE)), rtr.equals(Optional.of(RtrType.READ)),
                        replyOrd)
                : null;
        checkFits(policy, header, replyPrivateData);

        if (!ulpAccepts) {
            // RFC 5044 §7.1.2 rule 2: the responder SHOULD send a Reply with R=1, private data
            // allowed.
            return reject(request, replyC, header, replyPrivateData, MpaResponse.Reason.ULP_REJECTED,
                    Optional.empty(), "the application rejected the connection");
        }
        MpaMessage reply = MpaMessage.of(MpaFrameType.REPLY, policy.markersWanted(), replyC, false,
                request.revision(), header, replyPrivateData);
        MpaParameters params = new MpaParameters(request.revision(), enhanced,
                request.crc() || replyC, request.markers(), policy.markersWanted(), ird, ord,
                enhanced ? peer.ird() : NONE, enhanced ? peer.ord() : NONE, rtr,
                request.privateData());
        return new MpaResponse.Accept(reply, params);
    }

    private static MpaResponse.Reject reject(MpaMessage request, boolean replyC,
            MpaV2Header header, byte[] privateData, MpaResponse.Reason reason,
            Optional<MpaError> error, String message) {
        // RFC 5044 §7.1.1: R=1 rejects; the Reply has the Request's revision (RFC 6581 §6), and
        // reserved bits of the Request are never echoed.
        MpaMessage reply = MpaMessage.of(MpaFrameType.REPLY, false, replyC, true,
                request.revision(), header, privateData);
        return new MpaResponse.Reject(reply, reason, error, message);
    }

    // ---- initiator: the Reply -------------------------------------------------------------

    /**
     * What a rejecting Reply says about why, beyond R=1. A reject carries no reason code, but a
     * responder that refuses one of our flags clears it in its reject, as siw does: it clears M when
     * it cannot send markers, and C when its CRC policy forbids CRC ({@code mpa_crc_strict}); it
     * echoes the rest of our flags.
     */
    private static String rejectHint(MpaMessage ourRequest, MpaMessage reject) {
        StringBuilder hint = new StringBuilder();
        if (ourRequest.markers() && !reject.markers()) {
            hint.append(": markers required by us (siw and some RNICs refuse M=1)");
        }
        if (ourRequest.crc() && !reject.crc()) {
            hint.append(hint.isEmpty() ? ": " : "; ").append(
                    "it cleared C, so it refuses CRC (as siw with mpa_crc_strict does): try with CRC off");
        }
        return hint.toString();
    }

    /**
     * Concludes setup from the Reply to {@code ourRequest}, which {@code policy} produced (its
     * IRD/ORD are the resources we have).
     *
     * @throws IllegalArgumentException if the arguments are not a Request and a Reply
     */
    public static MpaCompletion complete(MpaPolicy policy, MpaMessage ourRequest,
            MpaMessage reply) {
        if (ourRequest.type() != MpaFrameType.REQUEST || reply.type() != MpaFrameType.REPLY) {
            throw new IllegalArgumentException("need our Request and the peer's Reply: "
                    + ourRequest.type() + ", " + reply.type());
        }
        byte[] pd = reply.privateData();
        // RFC 5044 §7.1.2 rule 3: R=1, leave MPA; the ULP closes TCP. The other fields of a
        // rejecting Reply carry no decision.
        if (reply.reject()) {
            return fail(MpaCompletion.Reason.PEER_REJECTED, Optional.empty(),
                    "peer rejected the connection" + rejectHint(ourRequest, reply)
                            + (pd.length > 0 ? " (" + pd.length + " bytes of private data)" : ""),
                    pd);
        }
        // RFC 6581 §6: the Reply is enhanced iff the Request was, and a responder does not answer
        // with a revision we did not offer.
        if (reply.revision() > ourRequest.revision()) {
            return fail(MpaCompletion.Reason.INVALID_REPLY,
                    Optional.of(MpaError.INVALID_REQUEST_OR_REPLY), "peer answered MPA revision "
                            + ourRequest.revision() + " with revision " + reply.revision(), pd);
        }
        if (reply.enhanced() != ourRequest.enhanced()) {
            return fail(MpaCompletion.Reason.INVALID_REPLY,
                    Optional.of(MpaError.INVALID_REQUEST_OR_REPLY), ourRequest.enhanced()
                            ? "peer answered an enhanced (RFC 6581) Request with a plain Reply"
                            : "peer answered a plain Request with an enhanced (RFC 6581) Reply",
                    pd);
        }
        // RFC 5044 §4.3: we MUST insert markers if the responder asks; if we cannot, give up.
        if (reply.markers() && !policy.canGenerateMarkers()) {
            return fail(MpaCompletion.Reason.MARKERS_NOT_SUPPORTED, Optional.empty(),
                    "peer requires markers, which this side cannot generate", pd);
        }
        // RFC 5044 §4.4: C=1 in the Reply turns CRC on.
        if (reply.crc() && !ourRequest.crc() && policy.crc() == MpaPolicy.CrcPolicy.REFUSED) {
            return fail(MpaCompletion.Reason.CRC_REFUSED, Optional.empty(),
                    "peer requires CRC, which this side's policy refuses", pd);
        }

        int ird = policy.ird();
        int ord = policy.ord();
        Optional<RtrType> rtr = Optional.empty();
        MpaV2Header peer = reply.enhancedHeader();
        if (peer != null) {
            // RFC 6581 §9.1: initiator IRD >= responder ORD; if we cannot provide it, Terminate
            // with INSUFFICIENT_IRD. 0x3FFF from the peer or in our policy: keep our value.
            if (peer.ord() != NONE && policy.ird() != NONE && peer.ord() > policy.ird()) {
                return fail(MpaCompletion.Reason.INSUFFICIENT_IRD,
                        Optional.of(MpaError.INSUFFICIENT_IRD), "peer's ORD " + peer.ord()
                                + " exceeds the IRD of " + policy.ird() + " this side provides", pd);
            }
            // RFC 6581 §9.1: initiator ORD <= responder IRD (lowering is always possible).
            if (peer.ird() != NONE && policy.ord() != NONE) {
                ord = Math.min(policy.ord(), peer.ird());
            }
            MpaV2Header ours = ourRequest.enhancedHeader();
            if (ours.peerToPeer()) {
                if (!peer.peerToPeer()) {
                    // RFC 6581 §9.2: the responder copies A. Without A our peer-to-peer ULP could
                    // wait for the responder, which waits for our first FPDU.
                    return fail(MpaCompletion.Reason.NO_MATCHING_RTR,
                            Optional.of(MpaError.NO_MATCHING_RTR),
                            "peer did not accept the peer-to-peer model (A=0 in its Reply)", pd);
                }
                Set<RtrType> usable = EnumSet.noneOf(RtrType.class);
                usable.addAll(peer.rtrTypes());
                usable.retainAll(ours.rtrTypes());
                // A zero-length Read needs an IRD slot at the responder.
                if (peer.ird() == 0) {
                    usable.remove(RtrType.READ);
                }
                rtr = choose(usable, policy.rtrTypes());
                if (rtr.isEmpty()) {
                    // RFC 6581 §9.2: no common RTR option: Terminate with NO_MATCHING_RTR.
                    return fail(MpaCompletion.Reason.NO_MATCHING_RTR,
                            Optional.of(MpaError.NO_MATCHING_RTR), "no RTR type in common: peer "
                                    + peer.rtrTypes() + ", this side " + ours.rtrTypes(), pd);
                }
                // RFC 6581 §9.2: a zero-length Read RTR needs an ORD of at least 1.
                if (rtr.get() == RtrType.READ && ord == 0) {
                    ord = 1;
                }
            }
            // With A=0 in our Request, B/C/D and A in the Reply are ignored (RFC 6581 §9.2).
        }
        boolean crc = ourRequest.crc() || reply.crc();
        return new MpaCompletion.Established(new MpaParameters(reply.revision(), peer != null, crc,
                reply.markers(), ourRequest.markers(), ird, ord,
                peer != null ? peer.ird() : NONE, peer != null ? peer.ord() : NONE, rtr, pd));
    }

    private static MpaCompletion.Failed fail(MpaCompletion.Reason reason,
            Optional<MpaError> terminate, String message, byte[] pd) {
        return new MpaCompletion.Failed(reason, terminate, message, pd);
    }

    // ---- helpers ---------------------------------------------------------------------------

    /** The first RTR type, in {@link RtrType} order, in both sets. */
    private static Optional<RtrType> choose(Set<RtrType> offered, Set<RtrType> supported) {
        for (RtrType t : RtrType.values()) {
            if (offered.contains(t) && supported.contains(t)) {
                return Optional.of(t);
            }
        }
        return Optional.empty();
    }

    private static void checkFits(MpaPolicy policy, MpaV2Header header, byte[] ulpPrivateData) {
        int length = ulpPrivateData.length + (header != null ? MpaV2Header.LENGTH : 0);
        // RFC 5044 §7.1.1 (512) or the siw/cxgb4 cap (256), enhanced header included (RFC 6581 §7).
        if (length > policy.maxPrivateDataLength()) {
            throw new IllegalArgumentException("MPA private data of " + length + " bytes"
                    + (header != null ? " (4 of them the enhanced header)" : "")
                    + " exceeds this policy's cap of " + policy.maxPrivateDataLength());
        }
    }
}
