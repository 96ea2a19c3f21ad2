package org.jwarp.wire.mpa;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Objects;
import java.util.Set;

/**
 * What this side wants and can do in MPA connection setup; the input of {@link MpaNegotiation}.
 *
 * @param revision the MPA revision we send and the highest we answer: 1 (RFC 5044) or 2 (RFC 6581)
 * @param enhanced as initiator, send S=1 and the {@link MpaV2Header} (needs revision 2). As
 *     responder an enhanced Request is always answered enhanced when revision is 2 (RFC 6581 §6)
 * @param crc our CRC policy; see {@link CrcPolicy}
 * @param markersWanted our receiver wants markers (we send M=1). Default false: nothing here needs
 *     them, and siw rejects a Request with M=1
 * @param canGenerateMarkers our sender can insert markers when the peer asks. RFC 5044 §4.3: every
 *     sender MUST be able to; false models a sender that cannot (siw), and makes us refuse M=1
 * @param ird inbound RDMA Read queue depth we provide, 0..0x3FFE, or 0x3FFF to leave it to the ULP
 *     (RFC 6581 §9.1). As initiator this is also the most we can raise it to
 * @param ord outbound RDMA Read queue depth we want, 0..0x3FFE, or 0x3FFF to leave it to the ULP
 * @param relaxedIrd as responder, when the initiator's ORD exceeds our IRD: true answers with our
 *     IRD and lets the initiator lower its ORD (siw's {@code relaxed_ird_negotiation}); false
 *     rejects with {@link org.jwarp.wire.rdmap.MpaError#INSUFFICIENT_IRD}
 * @param peerToPeer as initiator, ask for the peer-to-peer model (A=1) and send an RTR. A responder
 *     always follows the Request's A (RFC 6581 §9.2), so this is ignored there
 * @param rtrTypes the RTR messages we can send (initiator) and accept (responder)
 * @param maxPrivateDataLength the most PD_Length we send, enhanced header included: 512 (RFC 5044
 *     §7.1.1) or {@link MpaFrame#SIW_MAX_PRIVATE_DATA_LENGTH} when the peer may be siw or cxgb4
 */
public record MpaPolicy(int revision, boolean enhanced, CrcPolicy crc, boolean markersWanted,
        boolean canGenerateMarkers, int ird, int ord, boolean relaxedIrd, boolean peerToPeer,
        Set<RtrType> rtrTypes, int maxPrivateDataLength) {

    /**
     * CRC32c policy. RFC 5044 §4.4: CRC is on when C=1 in either frame, so asking for it can never
     * fail; only refusing it can.
     */
    public enum CrcPolicy {
        /** Send C=1. On the wire the same as PREFERRED; states that the administrator insists. */
        REQUIRED(true),
        /** Send C=1: RFC 5044 §4.4 makes "use CRC" the default. */
        PREFERRED(true),
        /**
         * Send C=0 (the administrator has equal protection, e.g. IPsec), but accept a peer's C=1.
         * This is siw's behaviour: CRC then runs iff the peer asked.
         */
        NOT_WANTED(false),
        /** Send C=0 and refuse a peer that sets C=1 (siw's {@code mpa_crc_strict}). */
        REFUSED(false);

        private final boolean sendsC;

        CrcPolicy(boolean sendsC) {
            this.sendsC = sendsC;
        }

        /** The C bit our frames carry. */
        public boolean sendsC() {
            return sendsC;
        }
    }

    /** IRD and ORD we offer by default: enough for typical storage ULPs, under siw's limit of 128. */
    public static final int DEFAULT_IRD_ORD = 16;

    public MpaPolicy {
        Objects.requireNonNull(crc, "crc");
        if (revision != MpaFrame.REVISION_1 && revision != MpaFrame.REVISION_2) {
            throw new IllegalArgumentException("MPA revision must be 1 or 2: " + revision);
        }
        if (enhanced && revision < MpaFrame.REVISION_2) {
            throw new IllegalArgumentException("enhanced MPA setup (RFC 6581) needs revision 2");
        }
        if (ird < 0 || ird > MpaV2Header.VALUE_MASK || ord < 0 || ord > MpaV2Header.VALUE_MASK) {
            throw new IllegalArgumentException("IRD " + ird + " / ORD " + ord + " outside 0..0x3FFF");
        }
        if (maxPrivateDataLength < 0 || maxPrivateDataLength > MpaFrame.MAX_PRIVATE_DATA_LENGTH) {
            throw new IllegalArgumentException("maxPrivateDataLength " + maxPrivateDataLength
                    + " outside 0.." + MpaFrame.MAX_PRIVATE_DATA_LENGTH);
        }
        EnumSet<RtrType> copy = EnumSet.noneOf(RtrType.class);
        copy.addAll(rtrTypes);
        rtrTypes = Collections.unmodifiableSet(copy);
    }

    /**
     * The recommended policy (reference §9): Rev 2 with S, C=1, no markers wanted but able to
     * generate them, IRD = ORD = 16, relaxed IRD, client/server model (no RTR of our own) while
     * accepting Write and Read RTRs, private data capped at siw's 256.
     */
    public static MpaPolicy defaults() {
        return new MpaPolicy(MpaFrame.REVISION_2, true, CrcPolicy.PREFERRED, false, true,
                DEFAULT_IRD_ORD, DEFAULT_IRD_ORD, true, false,
                EnumSet.of(RtrType.WRITE, RtrType.READ), MpaFrame.SIW_MAX_PRIVATE_DATA_LENGTH);
    }

    public MpaPolicy withRevision(int revision, boolean enhanced) {
        return new MpaPolicy(revision, enhanced, crc, markersWanted, canGenerateMarkers, ird, ord,
                relaxedIrd, peerToPeer, rtrTypes, maxPrivateDataLength);
    }

    public MpaPolicy withCrc(CrcPolicy crc) {
        return new MpaPolicy(revision, enhanced, crc, markersWanted, canGenerateMarkers, ird, ord,
                relaxedIrd, peerToPeer, rtrTypes, maxPrivateDataLength);
    }

    public MpaPolicy withMarkers(boolean markersWanted, boolean canGenerateMarkers) {
        return new MpaPolicy(revision, enhanced, crc, markersWanted, canGenerateMarkers, ird, ord,
                relaxedIrd, peerToPeer, rtrTypes, maxPrivateDataLength);
    }

    public MpaPolicy withIrdOrd(int ird, int ord, boolean relaxedIrd) {
        return new MpaPolicy(revision, enhanced, crc, markersWanted, canGenerateMarkers, ird, ord,
                relaxedIrd, peerToPeer, rtrTypes, maxPrivateDataLength);
    }

    public MpaPolicy withRtr(boolean peerToPeer, Set<RtrType> rtrTypes) {
        return new MpaPolicy(revision, enhanced, crc, markersWanted, canGenerateMarkers, ird, ord,
                relaxedIrd, peerToPeer, rtrTypes, maxPrivateDataLength);
    }

    public MpaPolicy withMaxPrivateDataLength(int maxPrivateDataLength) {
        return new MpaPolicy(revision, enhanced, crc, markersWanted, canGenerateMarkers, ird, ord,
                relaxedIrd, peerToPeer, rtrTypes, maxPrivateDataLength);
    }
}
