package org.jwarp.wire.mpa;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import java.util.Optional;
import java.util.Set;
import java.util.random.RandomGenerator;
import java.util.random.RandomGeneratorFactory;
import org.jwarp.wire.Wire;
import org.jwarp.wire.mpa.MpaPolicy.CrcPolicy;
import org.jwarp.wire.rdmap.MpaError;
import org.junit.jupiter.api.Test;

/** RFC 5044 §7.1 and RFC 6581 §9 negotiation: M/C tables, IRD/ORD, RTR choice, reject paths. */
class MpaNegotiationTest {

    private static final byte[] NONE = new byte[0];
    private static final int NO = MpaV2Header.NO_NEGOTIATION;

    private static MpaMessage request(boolean m, boolean c, MpaV2Header h) {
        return MpaMessage.of(MpaFrameType.REQUEST, m, c, false, h != null ? 2 : 1, h, NONE);
    }

    private static MpaMessage reply(boolean m, boolean c, MpaV2Header h) {
        return MpaMessage.of(MpaFrameType.REPLY, m, c, false, h != null ? 2 : 1, h, NONE);
    }

    private static MpaV2Header header(int ird, int ord) {
        return new MpaV2Header(false, false, ird, false, false, ord);
    }

    private static MpaV2Header p2p(boolean send, boolean write, boolean read, int ird, int ord) {
        return new MpaV2Header(true, send, ird, write, read, ord);
    }

    private static MpaResponse.Accept accept(MpaPolicy policy, MpaMessage request) {
        return assertInstanceOf(MpaResponse.Accept.class,
                MpaNegotiation.respond(policy, request, true, NONE));
    }

    private static MpaResponse.Reject reject(MpaPolicy policy, MpaMessage request) {
        return assertInstanceOf(MpaResponse.Reject.class,
                MpaNegotiation.respond(policy, request, true, NONE));
    }

    private static MpaParameters established(MpaPolicy policy, MpaMessage request, MpaMessage reply) {
        return assertInstanceOf(MpaCompletion.Established.class,
                MpaNegotiation.complete(policy, request, reply)).parameters();
    }

    private static MpaCompletion.Failed failed(MpaPolicy policy, MpaMessage request, MpaMessage reply) {
        return assertInstanceOf(MpaCompletion.Failed.class,
                MpaNegotiation.complete(policy, request, reply));
    }

    /** Reference §2.3, markers table: {Request M, Reply M, initiator->responder, responder->initiator}. */
    private static final boolean[][] MARKER_TABLE = {
        {false, false, false, false},
        {true, false, false, true},
        {false, true, true, false},
        {true, true, true, true},
    };

    // ---- M and C truth tables (reference §2.3) --------------------------------------------

    @Test
    void markerTableHoldsOnBothSides() {
        for (boolean[] row : MARKER_TABLE) {
            boolean reqM = row[0];
            boolean repM = row[1];
            String msg = "Request M=" + reqM + " Reply M=" + repM;
            // Responder: its Reply M is its own wish.
            MpaPolicy responder = MpaPolicy.defaults().withMarkers(repM, true);
            MpaResponse.Accept a = accept(responder, request(reqM, true, header(4, 4)));
            assertEquals(repM, a.reply().markers(), msg);
            assertEquals(row[3], a.parameters().markersToPeer(), msg + " responder->initiator");
            assertEquals(row[2], a.parameters().markersFromPeer(), msg + " initiator->responder");
            // Initiator.
            MpaPolicy initiator = MpaPolicy.defaults().withMarkers(reqM, true);
            MpaMessage req = MpaNegotiation.request(initiator, NONE);
            assertEquals(reqM, req.markers());
            MpaParameters p = established(initiator, req, reply(repM, true, header(16, 16)));
            assertEquals(row[2], p.markersToPeer(), msg + " initiator->responder");
            assertEquals(row[3], p.markersFromPeer(), msg + " responder->initiator");
        }
    }

    @Test
    void crcTableHoldsForEveryCombinationOnTheInitiator() {
        for (int bits = 0; bits < 16; bits++) {
            boolean reqM = (bits & 8) != 0;
            boolean reqC = (bits & 4) != 0;
            boolean repM = (bits & 2) != 0;
            boolean repC = (bits & 1) != 0;
            MpaPolicy initiator = MpaPolicy.defaults().withCrc(reqC ? CrcPolicy.PREFERRED : CrcPolicy.NOT_WANTED)
                    .withMarkers(reqM, true);
            MpaMessage req = MpaNegotiation.request(initiator, NONE);
            MpaParameters p = established(initiator, req, reply(repM, repC, header(16, 16)));
            String msg = "req M" + reqM + " C" + reqC + ", rep M" + repM + " C" + repC;
            // RFC 5044 §4.4: on iff C=1 in either frame.
            assertEquals(reqC || repC, p.crc(), msg);
            assertEquals(repM, p.markersToPeer(), msg);
            assertEquals(reqM, p.markersFromPeer(), msg);
        }
    }

    @Test
    void crcTableHoldsForEveryCombinationOnTheResponder() {
        for (CrcPolicy crc : new CrcPolicy[] {CrcPolicy.REQUIRED, CrcPolicy.PREFERRED, CrcPolicy.NOT_WANTED}) {
            for (int bits = 0; bits < 8; bits++) {
                boolean reqM = (bits & 4) != 0;
                boolean reqC = (bits & 2) != 0;
                boolean wantM = (bits & 1) != 0;
                MpaPolicy responder = MpaPolicy.defaults().withCrc(crc).withMarkers(wantM, true);
                MpaResponse.Accept a = accept(responder, request(reqM, reqC, header(4, 4)));
                String msg = crc + " req M" + reqM + " C" + reqC + " wantM " + wantM;
                // Reply C: ours, or the Request's echoed.
                assertEquals(reqC || crc.sendsC(), a.reply().crc(), msg);
                assertEquals(reqC || a.reply().crc(), a.parameters().crc(), msg);
                assertEquals(wantM, a.reply().markers(), msg);
                assertEquals(reqM, a.parameters().markersToPeer(), msg);
                assertEquals(wantM, a.parameters().markersFromPeer(), msg);
            }
        }
    }

    @Test
    void siwLikePeerGetsCrcIffWeSetC() {
        MpaMessage siwRequest = MpaVectors.SIW_DEFAULT_REQUEST.message();
        // We respond to siw.
        MpaResponse.Accept on = accept(MpaPolicy.defaults(), siwRequest);
        assertTrue(on.reply().crc());
        assertTrue(on.parameters().crc());
        assertEquals(1, on.parameters().ord());
        assertEquals(16, on.parameters().ird());
        assertEquals(1, on.reply().enhancedHeader().ord());
        MpaResponse.Accept off = accept(MpaPolicy.defaults().withCrc(CrcPolicy.NOT_WANTED), siwRequest);
        assertFalse(off.reply().crc());
        assertFalse(off.parameters().crc());
        // siw responds to us: it echoes our C.
        for (CrcPolicy crc : CrcPolicy.values()) {
            MpaPolicy us = MpaPolicy.defaults().withCrc(crc);
            MpaMessage req = MpaNegotiation.request(us, NONE);
            MpaMessage siwReply = MpaMessage.of(MpaFrameType.REPLY, false, req.crc(), false, 2,
                    header(1, 1), NONE);
            MpaParameters p = established(us, req, siwReply);
            assertEquals(crc.sendsC(), p.crc(), crc.name());
        }
    }

    @Test
    void reservedBitsInAPeerFrameAreToleratedAndNotEchoed() {
        // siw with try_gso: flags 0x18 = S | GSO(0x08), C=1 so the echo rule is exercised too.
        byte[] b = Wire.unhex(MpaVectors.REQUEST_KEY + " 58 02 00 04 00 01 00 01");
        MpaFrameReader r = new MpaFrameReader(MpaFrameType.REQUEST);
        assertEquals(MpaFrameReader.Status.COMPLETE, r.feed(MemorySegment.ofArray(b), 0, b.length));
        MpaMessage req = MpaMessage.decode(r.frame());
        assertEquals(0x08, req.reservedFlags());
        MpaResponse.Accept a = accept(MpaPolicy.defaults().withCrc(CrcPolicy.NOT_WANTED), req);
        byte[] replyBytes = a.reply().toBytes();
        assertEquals(0x50, replyBytes[MpaFrame.FLAGS_OFFSET] & 0xFF);
        assertEquals(0, a.reply().reservedFlags());
        MpaResponse.Reject rj = assertInstanceOf(MpaResponse.Reject.class,
                MpaNegotiation.respond(MpaPolicy.defaults(), req, false, NONE));
        assertEquals(0x70, rj.reply().toBytes()[MpaFrame.FLAGS_OFFSET] & 0xFF);
        // Initiator side: a Reply with reserved bits is fine.
        MpaPolicy us = MpaPolicy.defaults();
        MpaMessage ours = MpaNegotiation.request(us, NONE);
        MpaMessage weird = new MpaMessage(MpaFrameType.REPLY, false, true, false, 2, header(16, 16), NONE, 0x0F);
        assertTrue(established(us, ours, weird).crc());
    }

    // ---- markers and CRC refusals ---------------------------------------------------------

    @Test
    void markersAreGeneratedOnRequestAndRefusedOnlyWhenWeCannot() {
        MpaMessage irdmaOoo = request(true, true, p2p(false, true, true, 0x3FFF, 0x3FFF));
        assertTrue(accept(MpaPolicy.defaults(), irdmaOoo).parameters().markersToPeer());
        MpaResponse.Reject rj = reject(MpaPolicy.defaults().withMarkers(false, false), irdmaOoo);
        assertEquals(MpaResponse.Reason.MARKERS_NOT_SUPPORTED, rj.reason());
        assertTrue(rj.reply().reject());
        assertFalse(rj.reply().markers());
        assertTrue(rj.reply().enhanced(), "enhanced Request gets an enhanced Reply, even a reject");
        assertTrue(rj.message().contains("markers"));

        MpaPolicy cannot = MpaPolicy.defaults().withMarkers(false, false);
        MpaMessage req = MpaNegotiation.request(cannot, NONE);
        MpaCompletion.Failed f = failed(cannot, req, reply(true, true, header(16, 16)));
        assertEquals(MpaCompletion.Reason.MARKERS_NOT_SUPPORTED, f.reason());
        assertEquals(Optional.empty(), f.terminate());
        assertTrue(f.message().contains("markers"), f.message());
    }

    @Test
    void strictNoCrcRefusesAPeerThatSetsC() {
        MpaPolicy strict = MpaPolicy.defaults().withCrc(CrcPolicy.REFUSED);
        MpaResponse.Reject rj = reject(strict, MpaVectors.JAVA_REQUEST.message());
        assertEquals(MpaResponse.Reason.CRC_REFUSED, rj.reason());
        assertFalse(rj.reply().crc());
        assertTrue(rj.reply().reject());
        assertFalse(accept(strict, MpaVectors.SIW_DEFAULT_REQUEST.message()).parameters().crc());

        MpaMessage req = MpaNegotiation.request(strict, NONE);
        assertFalse(req.crc());
        assertEquals(MpaCompletion.Reason.CRC_REFUSED,
                failed(strict, req, reply(false, true, header(16, 16))).reason());
        assertFalse(established(strict, req, reply(false, false, header(16, 16))).crc());
    }

    @Test
    void requiredCrcNeverRejects() {
        MpaPolicy required = MpaPolicy.defaults().withCrc(CrcPolicy.REQUIRED);
        assertTrue(accept(required, MpaVectors.SIW_DEFAULT_REQUEST.message()).parameters().crc());
        MpaMessage req = MpaNegotiation.request(required, NONE);
        assertTrue(req.crc());
        assertTrue(established(required, req, reply(false, false, header(16, 16))).crc());
    }

    // ---- revision --------------------------------------------------------------------------

    @Test
    void replyRevisionFollowsTheRequest() {
        MpaResponse.Accept rev1 = accept(MpaPolicy.defaults(), MpaVectors.REV1_REQUEST.message());
        assertEquals(1, rev1.reply().revision());
        assertFalse(rev1.reply().enhanced());
        assertFalse(rev1.parameters().enhanced());
        assertEquals(NO, rev1.parameters().peerIrd());
        assertArrayEquals(new byte[] {(byte) 0xab, (byte) 0xcd}, rev1.parameters().peerPrivateData());
        MpaMessage plain2 = MpaMessage.of(MpaFrameType.REQUEST, false, true, false, 2, null, NONE);
        MpaResponse.Accept rev2 = accept(MpaPolicy.defaults(), plain2);
        assertEquals(2, rev2.reply().revision());
        assertFalse(rev2.reply().enhanced());
        assertTrue(accept(MpaPolicy.defaults(), MpaVectors.JAVA_REQUEST.message()).reply().enhanced());
    }

    @Test
    void revisionOneResponderRefusesRevisionTwo() {
        MpaResponse.Reject rj = reject(MpaVectors.rev1Policy(), MpaVectors.JAVA_REQUEST.message());
        assertEquals(MpaResponse.Reason.UNSUPPORTED_REVISION, rj.reason());
        assertEquals(1, rj.reply().revision());
        assertFalse(rj.reply().enhanced());
        assertTrue(rj.reply().reject());
    }

    @Test
    void initiatorRefusesRepliesThatBreakRfc6581Section6() {
        MpaPolicy us = MpaPolicy.defaults();
        MpaMessage enhanced = MpaNegotiation.request(us, NONE);
        MpaCompletion.Failed plainAnswer = failed(us, enhanced, reply(false, true, null));
        assertEquals(MpaCompletion.Reason.INVALID_REPLY, plainAnswer.reason());
        assertEquals(Optional.of(MpaError.INVALID_REQUEST_OR_REPLY), plainAnswer.terminate());
        MpaPolicy rev1 = MpaVectors.rev1Policy();
        MpaMessage plain = MpaNegotiation.request(rev1, NONE);
        MpaMessage rev2Reply = MpaMessage.of(MpaFrameType.REPLY, false, true, false, 2, null, NONE);
        assertEquals(MpaCompletion.Reason.INVALID_REPLY, failed(rev1, plain, rev2Reply).reason());
        assertEquals(MpaCompletion.Reason.INVALID_REPLY,
                failed(rev1, plain, reply(false, true, header(1, 1))).reason());
        assertFalse(established(rev1, plain, reply(false, true, null)).enhanced());
    }

    // ---- IRD / ORD (RFC 6581 §9.1) ---------------------------------------------------------

    @Test
    void responderLowersOrdToInitiatorIrdAndReportsItsActualIrd() {
        MpaResponse.Accept a = accept(MpaPolicy.defaults(), request(false, true, header(4, 8)));
        assertEquals(header(16, 4), a.reply().enhancedHeader());
        assertEquals(16, a.parameters().ird());
        assertEquals(4, a.parameters().ord());
        assertEquals(4, a.parameters().peerIrd());
        assertEquals(8, a.parameters().peerOrd());
    }

    @Test
    void initiatorOrdAboveOurIrdIsRelaxedOrRejected() {
        MpaMessage greedy = request(false, true, header(16, 32));
        MpaResponse.Accept relaxed = accept(MpaPolicy.defaults(), greedy);
        assertEquals(16, relaxed.reply().enhancedHeader().ird());
        // The initiator then lowers its ORD to our IRD.
        MpaPolicy initiator = MpaPolicy.defaults().withIrdOrd(16, 32, true);
        MpaMessage req = MpaNegotiation.request(initiator, NONE);
        assertEquals(greedy, req);
        assertEquals(16, established(initiator, req, relaxed.reply()).ord());

        MpaResponse.Reject strict = reject(MpaPolicy.defaults().withIrdOrd(16, 16, false), greedy);
        assertEquals(MpaResponse.Reason.INSUFFICIENT_IRD, strict.reason());
        assertEquals(Optional.of(MpaError.INSUFFICIENT_IRD), strict.error());
        assertEquals(0x06, strict.error().orElseThrow().errorCode());
        assertTrue(strict.reply().reject());
    }

    @Test
    void noNegotiationValueOnEitherSideOfTheRequest() {
        // Initiator IRD 0x3FFF: keep our ORD, answer ORD 0x3FFF.
        MpaResponse.Accept a = accept(MpaPolicy.defaults(), request(false, true, header(NO, 4)));
        assertEquals(NO, a.reply().enhancedHeader().ord());
        assertEquals(16, a.parameters().ord());
        assertEquals(16, a.reply().enhancedHeader().ird());
        // Initiator ORD 0x3FFF: keep our IRD, answer IRD 0x3FFF (even when strict).
        MpaResponse.Accept b = accept(MpaPolicy.defaults().withIrdOrd(2, 2, false), request(false, true, header(4, NO)));
        assertEquals(NO, b.reply().enhancedHeader().ird());
        assertEquals(2, b.parameters().ird());
        assertEquals(2, b.reply().enhancedHeader().ord());
        // irdma with "no IRD/ORD": both 0x3FFF.
        MpaResponse.Accept c = accept(MpaPolicy.defaults(), request(false, true, header(NO, NO)));
        assertEquals(header(NO, NO), c.reply().enhancedHeader());
        assertEquals(16, c.parameters().ird());
        assertEquals(16, c.parameters().ord());
        // Our own policy leaving it to the ULP.
        MpaResponse.Accept d = accept(MpaPolicy.defaults().withIrdOrd(NO, NO, true), request(false, true, header(4, 4)));
        assertEquals(header(NO, NO), d.reply().enhancedHeader());
    }

    @Test
    void initiatorAdoptsReplyValuesAndKeepsItsOwnOn3fff() {
        MpaPolicy us = MpaPolicy.defaults().withIrdOrd(8, 8, true);
        MpaMessage req = MpaNegotiation.request(us, NONE);
        MpaParameters p = established(us, req, reply(false, true, header(2, 8)));
        assertEquals(8, p.ird());
        assertEquals(2, p.ord());
        assertEquals(2, p.peerIrd());
        assertEquals(8, p.peerOrd());
        MpaParameters q = established(us, req, reply(false, true, header(NO, NO)));
        assertEquals(8, q.ird());
        assertEquals(8, q.ord());
        assertEquals(NO, q.peerIrd());
    }

    @Test
    void replyOrdAboveOurIrdTerminatesWithInsufficientIrd() {
        MpaPolicy us = MpaPolicy.defaults().withIrdOrd(8, 8, true);
        MpaMessage req = MpaNegotiation.request(us, NONE);
        MpaCompletion.Failed f = failed(us, req, reply(false, true, header(8, 9)));
        assertEquals(MpaCompletion.Reason.INSUFFICIENT_IRD, f.reason());
        assertEquals(Optional.of(MpaError.INSUFFICIENT_IRD), f.terminate());
        assertEquals(0x06, f.terminate().orElseThrow().errorCode());
        assertEquals(2, f.terminate().orElseThrow().layer());
        assertTrue(f.message().contains("ORD 9"), f.message());
    }

    @Test
    void readRtrRaisesZeroIrdAndZeroOrdToOne() {
        // cxgb4-like offer with ORD 0: only a Read RTR.
        MpaMessage req = request(false, true, p2p(false, false, true, 0, 0));
        MpaResponse.Accept a = accept(MpaPolicy.defaults().withIrdOrd(0, 0, true), req);
        assertEquals(Optional.of(RtrType.READ), a.parameters().rtr());
        assertEquals(1, a.parameters().ird());
        assertEquals(p2p(false, false, true, 1, 0), a.reply().enhancedHeader());
        MpaPolicy initiator = MpaPolicy.defaults().withIrdOrd(0, 0, true).withRtr(true, EnumSet.of(RtrType.READ));
        MpaMessage ours = MpaNegotiation.request(initiator, NONE);
        assertEquals(req, ours);
        MpaParameters p = established(initiator, ours, a.reply());
        assertEquals(Optional.of(RtrType.READ), p.rtr());
        assertEquals(1, p.ord());
    }

    // ---- RTR (RFC 6581 §9.2, §9.3) ---------------------------------------------------------

    @Test
    void cxgb4ReadOnlyOfferGetsTheReadRtr() {
        MpaMessage cxgb4 = request(false, true, p2p(false, false, true, 8, 8));
        MpaResponse.Accept a = accept(MpaPolicy.defaults(), cxgb4);
        assertEquals(Optional.of(RtrType.READ), a.parameters().rtr());
        assertEquals(p2p(false, false, true, 16, 8), a.reply().enhancedHeader());
    }

    @Test
    void irdmaWriteAndReadOfferGetsTheWriteRtr() {
        MpaMessage irdma = request(false, true, p2p(false, true, true, 8, 8));
        MpaResponse.Accept a = accept(MpaPolicy.defaults(), irdma);
        assertEquals(Optional.of(RtrType.WRITE), a.parameters().rtr());
        MpaV2Header h = a.reply().enhancedHeader();
        assertTrue(h.peerToPeer() && h.rtrWrite());
        assertFalse(h.rtrRead() || h.rtrSend(), "exactly one option chosen");
    }

    @Test
    void noCommonOfferMakesTheResponderNameItsOwnAndTheInitiatorTerminate() {
        MpaPolicy sendOnly = MpaPolicy.defaults().withRtr(true, EnumSet.of(RtrType.SEND));
        MpaMessage req = MpaNegotiation.request(sendOnly, NONE);
        assertEquals(p2p(true, false, false, 16, 16), req.enhancedHeader());
        MpaResponse.Accept a = accept(MpaPolicy.defaults(), req);
        assertEquals(Optional.of(RtrType.WRITE), a.parameters().rtr());
        MpaCompletion.Failed f = failed(sendOnly, req, a.reply());
        assertEquals(MpaCompletion.Reason.NO_MATCHING_RTR, f.reason());
        assertEquals(Optional.of(MpaError.NO_MATCHING_RTR), f.terminate());
        assertEquals(0x07, f.terminate().orElseThrow().errorCode());
    }

    @Test
    void responderThatAcceptsNoRtrRejectsPeerToPeer() {
        MpaPolicy none = MpaPolicy.defaults().withRtr(false, Set.of());
        MpaResponse.Reject rj = reject(none, MpaVectors.P2P_REQUEST.message());
        assertEquals(MpaResponse.Reason.NO_MATCHING_RTR, rj.reason());
        assertEquals(Optional.of(MpaError.NO_MATCHING_RTR), rj.error());
        // Client/server Requests are still fine.
        assertEquals(Optional.empty(), accept(none, MpaVectors.JAVA_REQUEST.message()).parameters().rtr());
    }

    @Test
    void sendRtrIsChosenWhenItIsTheOnlyCommonOption() {
        MpaPolicy all = MpaPolicy.defaults().withRtr(true, EnumSet.allOf(RtrType.class));
        MpaResponse.Accept a = accept(all, request(false, true, p2p(true, false, false, 4, 4)));
        assertEquals(Optional.of(RtrType.SEND), a.parameters().rtr());
        assertTrue(a.reply().enhancedHeader().rtrSend());
    }

    @Test
    void rtrBitsWithoutPeerToPeerAreIgnored() {
        MpaMessage sloppy = request(false, true, new MpaV2Header(false, true, 4, true, true, 4));
        MpaResponse.Accept a = accept(MpaPolicy.defaults(), sloppy);
        assertEquals(Optional.empty(), a.parameters().rtr());
        assertEquals(header(16, 4), a.reply().enhancedHeader());
        // And as initiator with A=0, a Reply's A/B/C/D are ignored.
        MpaPolicy us = MpaPolicy.defaults();
        MpaMessage req = MpaNegotiation.request(us, NONE);
        assertEquals(Optional.empty(), established(us, req, reply(false, true, p2p(true, true, true, 16, 16))).rtr());
    }

    @Test
    void initiatorPicksWriteThenReadAndNeedsAPeerIrdForRead() {
        MpaPolicy us = MpaVectors.p2pPolicy();
        MpaMessage req = MpaNegotiation.request(us, NONE);
        assertEquals(Optional.of(RtrType.WRITE),
                established(us, req, MpaVectors.P2P_REPLY_WRITE.message()).rtr());
        assertEquals(Optional.of(RtrType.WRITE), established(us, req, reply(false, true, p2p(false, true, true, 4, 4))).rtr());
        assertEquals(Optional.of(RtrType.READ), established(us, req, reply(false, true, p2p(false, false, true, 4, 4))).rtr());
        assertEquals(Optional.of(RtrType.READ), established(us, req, reply(false, true, p2p(false, false, true, NO, 4))).rtr());
        assertEquals(MpaCompletion.Reason.NO_MATCHING_RTR,
                failed(us, req, reply(false, true, p2p(false, false, true, 0, 4))).reason());
        assertEquals(MpaCompletion.Reason.NO_MATCHING_RTR,
                failed(us, req, reply(false, true, p2p(true, false, false, 4, 4))).reason());
        MpaCompletion.Failed noA = failed(us, req, reply(false, true, header(4, 4)));
        assertEquals(MpaCompletion.Reason.NO_MATCHING_RTR, noA.reason());
        assertEquals(Optional.of(MpaError.NO_MATCHING_RTR), noA.terminate());
    }

    // ---- rejects and private data ----------------------------------------------------------

    @Test
    void ulpRejectCarriesPrivateDataAndTheInitiatorSeesIt() {
        byte[] why = "busy".getBytes(java.nio.charset.StandardCharsets.US_ASCII);
        MpaPolicy us = MpaPolicy.defaults();
        MpaMessage req = MpaNegotiation.request(us, new byte[] {1, 2, 3});
        MpaResponse.Reject rj = assertInstanceOf(MpaResponse.Reject.class,
                MpaNegotiation.respond(us, req, false, why));
        assertEquals(MpaResponse.Reason.ULP_REJECTED, rj.reason());
        assertEquals(Optional.empty(), rj.error());
        assertTrue(rj.reply().reject());
        assertTrue(rj.reply().enhanced());
        assertArrayEquals(why, rj.reply().privateData());
        assertEquals(20 + 4 + 4, rj.reply().frameLength());

        MpaCompletion.Failed f = failed(us, req, rj.reply());
        assertEquals(MpaCompletion.Reason.PEER_REJECTED, f.reason());
        assertEquals(Optional.empty(), f.terminate());
        assertArrayEquals(why, f.peerPrivateData());
        assertTrue(f.message().startsWith("peer rejected the connection"), f.message());
    }

    @Test
    void rev1RejectIsTheReferenceFrame() {
        MpaResponse.Reject rj = assertInstanceOf(MpaResponse.Reject.class,
                MpaNegotiation.respond(MpaPolicy.defaults(), MpaVectors.REV1_REQUEST.message(), false, NONE));
        assertArrayEquals(MpaVectors.REV1_REJECT.bytes(), rj.reply().toBytes());
    }

    @Test
    void rejectAfterAskingForMarkersSaysSo() {
        MpaPolicy us = MpaPolicy.defaults().withMarkers(true, true);
        MpaMessage req = MpaNegotiation.request(us, NONE);
        // What siw sends: R=1, M cleared, C echoed, enhanced header kept.
        MpaMessage siwReject = MpaMessage.of(MpaFrameType.REPLY, false, true, true, 2, header(1, 1), NONE);
        MpaCompletion.Failed f = failed(us, req, siwReject);
        assertEquals(MpaCompletion.Reason.PEER_REJECTED, f.reason());
        assertTrue(f.message().contains("markers required"), f.message());
    }

    /** The reject Replies siw (mpa_crc_strict) sent to jwarp's C=1 Requests, as tcpdump captured them. */
    @Test
    void rejectThatClearsCrcSaysTheyRefuseCrc() {
        MpaPolicy us = MpaPolicy.defaults();
        for (String hex : new String[] {"4d504120494420526570204672616d653002000400000000",
                "4d504120494420526570204672616d6520010000"}) {
            byte[] bytes = Wire.unhex(hex);
            MpaFrameReader reader = new MpaFrameReader(MpaFrameType.REPLY);
            assertEquals(MpaFrameReader.Status.COMPLETE, reader.feed(MemorySegment.ofArray(bytes), 0, bytes.length));
            MpaMessage reject = MpaMessage.decode(reader.frame());
            MpaPolicy policy = reject.revision() == 1 ? us.withRevision(1, false) : us;
            MpaCompletion.Failed f = failed(policy, MpaNegotiation.request(policy, NONE), reject);
            assertEquals(MpaCompletion.Reason.PEER_REJECTED, f.reason());
            assertEquals("peer rejected the connection: it cleared C, so it refuses CRC (as siw with mpa_crc_strict"
                    + " does): try with CRC off", f.message());
        }
    }

    @Test
    void rejectThatKeepsOurFlagsGivesNoHint() {
        MpaPolicy us = MpaPolicy.defaults();
        MpaMessage req = MpaNegotiation.request(us, NONE);
        MpaMessage reject = MpaMessage.of(MpaFrameType.REPLY, false, true, true, 2, header(1, 1), NONE);
        assertEquals("peer rejected the connection", failed(us, req, reject).message());
    }

    @Test
    void checkReportsProtocolRejectsBeforeTheUlpIsAsked() {
        assertEquals(Optional.empty(), MpaNegotiation.check(MpaPolicy.defaults(), MpaVectors.P2P_REQUEST.message()));
        assertEquals(MpaResponse.Reason.CRC_REFUSED, MpaNegotiation.check(
                MpaPolicy.defaults().withCrc(CrcPolicy.REFUSED), MpaVectors.P2P_REQUEST.message())
                .orElseThrow().reason());
    }

    @Test
    void privateDataCapIncludesTheEnhancedHeader() {
        MpaPolicy siwCap = MpaPolicy.defaults();
        assertEquals(MpaFrame.SIW_MAX_PRIVATE_DATA_LENGTH, siwCap.maxPrivateDataLength());
        assertEquals(256, MpaNegotiation.request(siwCap, new byte[252]).privateDataLength());
        assertThrows(IllegalArgumentException.class, () -> MpaNegotiation.request(siwCap, new byte[253]));
        MpaPolicy rfcCap = siwCap.withMaxPrivateDataLength(512);
        assertEquals(512, MpaNegotiation.request(rfcCap, new byte[508]).privateDataLength());
        assertThrows(IllegalArgumentException.class, () -> MpaNegotiation.request(rfcCap, new byte[509]));
        assertThrows(IllegalArgumentException.class,
                () -> MpaNegotiation.respond(siwCap, MpaVectors.JAVA_REQUEST.message(), true, new byte[253]));
        assertEquals(256, MpaNegotiation.request(MpaVectors.rev1Policy(), new byte[256]).privateDataLength());
    }

    @Test
    void policyValidatesItself() {
        assertThrows(IllegalArgumentException.class, () -> MpaPolicy.defaults().withRevision(1, true));
        assertThrows(IllegalArgumentException.class, () -> MpaPolicy.defaults().withRevision(3, false));
        assertThrows(IllegalArgumentException.class, () -> MpaPolicy.defaults().withIrdOrd(0x4000, 1, true));
        assertThrows(IllegalArgumentException.class, () -> MpaPolicy.defaults().withMaxPrivateDataLength(513));
        assertThrows(IllegalArgumentException.class,
                () -> MpaNegotiation.respond(MpaPolicy.defaults(), MpaVectors.JAVA_REPLY.message(), true, NONE));
        assertThrows(IllegalArgumentException.class, () -> MpaNegotiation.complete(MpaPolicy.defaults(),
                MpaVectors.JAVA_REPLY.message(), MpaVectors.JAVA_REPLY.message()));
        assertNull(MpaNegotiation.request(MpaVectors.rev1Policy(), NONE).enhancedHeader());
    }

    // ---- both sides together ---------------------------------------------------------------

    private static MpaPolicy randomPolicy(RandomGenerator rnd) {
        int rev = rnd.nextBoolean() ? 2 : 1;
        int[] depths = {0, 1, 2, 4, 16, 128, 0x3FFE, NO};
        EnumSet<RtrType> rtr = EnumSet.noneOf(RtrType.class);
        for (RtrType t : RtrType.values()) {
            if (rnd.nextInt(3) > 0) {
                rtr.add(t);
            }
        }
        return new MpaPolicy(rev, rev == 2 && rnd.nextInt(4) > 0,
                CrcPolicy.values()[rnd.nextInt(CrcPolicy.values().length)], rnd.nextInt(4) == 0,
                rnd.nextInt(4) > 0, depths[rnd.nextInt(depths.length)], depths[rnd.nextInt(depths.length)],
                rnd.nextBoolean(), rnd.nextBoolean(), rtr,
                rnd.nextBoolean() ? MpaFrame.SIW_MAX_PRIVATE_DATA_LENGTH : MpaFrame.MAX_PRIVATE_DATA_LENGTH);
    }

    private static MpaMessage overTheWire(MpaMessage m) {
        byte[] b = m.toBytes();
        MpaFrameReader r = new MpaFrameReader(m.type());
        assertEquals(MpaFrameReader.Status.COMPLETE, r.feed(MemorySegment.ofArray(b), 0, b.length));
        assertEquals(b.length, r.consumed());
        return MpaMessage.decode(r.frame());
    }

    /**
     * Property: for random pairs of policies, Request -> wire -> respond -> wire -> complete ends
     * with both sides agreeing (CRC, markers per direction, RTR, RFC 6581 §9.1 IRD/ORD
     * inequalities), or with a refusal both sides see.
     */
    @Test
    void bothSidesAgreeForRandomPolicies() {
        RandomGenerator seeds = RandomGeneratorFactory.of("L64X128MixRandom").create(0x6E65_676FL);
        int established = 0;
        for (int i = 0; i < 3000; i++) {
            long seed = seeds.nextLong();
            RandomGenerator rnd = RandomGeneratorFactory.of("L64X128MixRandom").create(seed);
            String msg = "seed " + seed;
            MpaPolicy ip = randomPolicy(rnd);
            MpaPolicy rp = randomPolicy(rnd);
            MpaMessage req = MpaNegotiation.request(ip, NONE);
            MpaResponse resp = MpaNegotiation.respond(rp, overTheWire(req), true, NONE);
            MpaMessage rep = overTheWire(resp.reply());
            MpaCompletion done = MpaNegotiation.complete(ip, req, rep);
            if (resp instanceof MpaResponse.Reject) {
                assertEquals(MpaCompletion.Reason.PEER_REJECTED,
                        assertInstanceOf(MpaCompletion.Failed.class, done, msg).reason(), msg);
                continue;
            }
            MpaParameters r = ((MpaResponse.Accept) resp).parameters();
            if (done instanceof MpaCompletion.Failed f) {
                // Only RFC 6581 reasons the responder cannot see, or our own refusals.
                assertTrue(f.reason() == MpaCompletion.Reason.NO_MATCHING_RTR
                        || f.reason() == MpaCompletion.Reason.MARKERS_NOT_SUPPORTED
                        || f.reason() == MpaCompletion.Reason.CRC_REFUSED, msg + " " + f);
                continue;
            }
            established++;
            MpaParameters p = ((MpaCompletion.Established) done).parameters();
            assertEquals(p.crc(), r.crc(), msg);
            assertEquals(req.crc() || rep.crc(), p.crc(), msg);
            assertEquals(p.markersToPeer(), r.markersFromPeer(), msg);
            assertEquals(p.markersFromPeer(), r.markersToPeer(), msg);
            assertEquals(p.rtr(), r.rtr(), msg);
            assertEquals(p.enhanced(), r.enhanced(), msg);
            assertEquals(p.revision(), r.revision(), msg);
            if (p.enhanced()) {
                // RFC 6581 §9.1: the Reply carries the responder's actual values.
                if (p.peerIrd() != NO) {
                    assertEquals(r.ird(), p.peerIrd(), msg + " Reply IRD is the responder's IRD");
                }
                if (p.peerOrd() != NO) {
                    assertEquals(r.ord(), p.peerOrd(), msg + " Reply ORD is the responder's ORD");
                }
                if (p.ord() != NO && r.ird() != NO && p.peerIrd() != NO) {
                    assertTrue(p.ord() <= r.ird(), msg + " initiator ORD <= responder IRD");
                }
                if (r.ord() != NO && p.ird() != NO && r.peerIrd() != NO) {
                    assertTrue(r.ord() <= p.ird(), msg + " responder ORD <= initiator IRD");
                }
                if (p.rtr().equals(Optional.of(RtrType.READ))) {
                    assertTrue(p.ord() >= 1 && r.ird() >= 1, msg + " Read RTR needs ORD and IRD");
                }
            }
        }
        assertTrue(established > 500, "too few established cases to mean much: " + established);
    }
}
