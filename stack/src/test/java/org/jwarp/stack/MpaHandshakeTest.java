package org.jwarp.stack;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.time.Duration;
import java.util.EnumSet;
import java.util.Optional;
import java.util.random.RandomGenerator;
import org.jwarp.stack.MpaHandshake.Phase;
import org.jwarp.stack.StagTable.Region;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WrOpcode;
import org.jwarp.wire.fpdu.Seeds;
import org.jwarp.wire.mpa.MpaParameters;
import org.jwarp.wire.mpa.MpaPolicy;
import org.jwarp.wire.mpa.RtrType;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

/** MPA connection setup driven by bytes and an injected clock, then full operation on top of it. */
class MpaHandshakeTest {

    static final Duration REPLY = Duration.ofSeconds(10);
    static final Duration REQUEST = Duration.ofSeconds(5);
    static final Duration DECISION = Duration.ofSeconds(3);
    static final long SEC = 1_000_000_000L;

    static MpaHandshake initiator(MpaPolicy p, byte[] pd) {
        return MpaHandshake.initiator(p, pd, 0, REPLY);
    }

    static MpaHandshake responder(MpaPolicy p) {
        return MpaHandshake.responder(p, 0, REQUEST, DECISION);
    }

    /** Delivers {@code from}'s output to {@code to} in random windows; returns the bytes not consumed. */
    static byte[] deliver(MpaHandshake from, MpaHandshake to, RandomGenerator r) {
        byte[] out = from.output();
        from.outputWritten();
        int off = 0;
        while (off < out.length) {
            int w = Math.min(out.length - off, 1 + r.nextInt(8));
            long used = to.onBytes(MemorySegment.ofArray(out), off, w, 0);
            off += (int) used;
            if (used < w) {
                break;
            }
        }
        return java.util.Arrays.copyOfRange(out, off, out.length);
    }

    @Test
    void defaultPoliciesAgreeOnCrcAndIrdOrd() {
        for (int i = 0; i < 50; i++) {
            RandomGenerator r = Seeds.random(Seeds.caseSeed("mpa-handshake", i));
            MpaHandshake ini = initiator(MpaPolicy.defaults(), "hello".getBytes());
            MpaHandshake res = responder(MpaPolicy.defaults());
            assertEquals(0, deliver(ini, res, r).length);
            assertSame(Phase.AWAIT_DECISION, res.phase());
            assertArrayEquals("hello".getBytes(), res.peerPrivateData());
            res.accept("welcome".getBytes());
            assertSame(Phase.ESTABLISHED, res.phase());
            deliver(res, ini, r);
            assertSame(Phase.ESTABLISHED, ini.phase());
            assertArrayEquals("welcome".getBytes(), ini.peerPrivateData());
            MpaParameters a = ini.parameters();
            MpaParameters b = res.parameters();
            assertTrue(a.crc() && b.crc(), "our default sends C=1");
            assertFalse(a.markersToPeer() || b.markersToPeer());
            assertTrue(a.ord() <= b.ird() && b.ord() <= a.ird(), "RFC 6581 §9.1");
        }
    }

    @Test
    void aRejectCarriesTheResponderPrivateData() {
        MpaHandshake ini = initiator(MpaPolicy.defaults(), new byte[0]);
        MpaHandshake res = responder(MpaPolicy.defaults());
        deliver(ini, res, Seeds.random(1));
        res.reject("go away".getBytes());
        assertSame(Phase.REJECTED, res.phase());
        deliver(res, ini, Seeds.random(2));
        assertSame(Phase.REJECTED, ini.phase());
        assertArrayEquals("go away".getBytes(), ini.peerPrivateData());
        assertTrue(ini.failure().contains("reject"), ini.failure());
    }

    @Test
    void garbageInsteadOfARequestClosesWithoutAReply() {
        MpaHandshake res = responder(MpaPolicy.defaults());
        byte[] http = "GET / HTTP/1.1\r\nHost: x\r\n\r\n".getBytes();
        res.onBytes(MemorySegment.ofArray(http), 0, http.length, 0);
        assertSame(Phase.FAILED, res.phase());
        assertEquals(0, res.output().length, "RFC 5044 §7.1.2: a malformed Request gets no Reply");
        assertTrue(res.failure().contains("invalid MPA Request"), res.failure());
    }

    @Test
    void bytesQueuedBehindTheRequestAreAProtocolError() {
        MpaHandshake ini = initiator(MpaPolicy.defaults(), new byte[0]);
        byte[] req = ini.output();
        byte[] withFpdu = java.util.Arrays.copyOf(req, req.length + 28);
        MpaHandshake res = responder(MpaPolicy.defaults());
        res.onBytes(MemorySegment.ofArray(withFpdu), 0, withFpdu.length, 0);
        assertSame(Phase.FAILED, res.phase());
    }

    @Test
    void aSilentPeerTimesOut() {
        MpaHandshake res = responder(MpaPolicy.defaults());
        res.onTime(5 * SEC - 1);
        assertSame(Phase.AWAIT_REQUEST, res.phase());
        res.onTime(5 * SEC);
        assertSame(Phase.FAILED, res.phase());
        assertTrue(res.failure().contains("Request"));

        MpaHandshake ini = initiator(MpaPolicy.defaults(), new byte[0]);
        ini.onTime(10 * SEC - 1);
        assertSame(Phase.AWAIT_REPLY, ini.phase());
        ini.onTime(10 * SEC);
        assertSame(Phase.FAILED, ini.phase());
        assertTrue(ini.failure().contains("Reply"));
    }

    @Test
    void anUndecidedApplicationTimesOut() {
        MpaHandshake ini = initiator(MpaPolicy.defaults(), new byte[0]);
        MpaHandshake res = responder(MpaPolicy.defaults());
        byte[] req = ini.output();
        res.onBytes(MemorySegment.ofArray(req), 0, req.length, 4 * SEC);
        assertSame(Phase.AWAIT_DECISION, res.phase());
        res.onTime(4 * SEC + DECISION.toNanos() - 1);
        assertSame(Phase.AWAIT_DECISION, res.phase());
        res.onTime(4 * SEC + DECISION.toNanos());
        assertSame(Phase.FAILED, res.phase());
    }

    @Test
    void markersAskedForAreGenerated() {
        MpaPolicy wantsMarkers = MpaPolicy.defaults().withMarkers(true, true);
        MpaHandshake ini = initiator(wantsMarkers, new byte[0]);
        MpaHandshake res = responder(MpaPolicy.defaults());
        deliver(ini, res, Seeds.random(3));
        res.accept(new byte[0]);
        deliver(res, ini, Seeds.random(4));
        assertTrue(res.parameters().markersToPeer());
        assertTrue(ini.parameters().markersFromPeer());
        assertFalse(ini.parameters().markersToPeer());
    }

    /** RFC 6581 peer-to-peer start: the RTR is the initiator's first FPDU; the responder waits for it. */
    @ParameterizedTest
    @EnumSource(RtrType.class)
    void peerToPeerStartWithEachRtr(RtrType rtr) {
        MpaPolicy ip = MpaPolicy.defaults().withRtr(true, EnumSet.of(rtr));
        MpaPolicy rp = MpaPolicy.defaults().withRtr(false, EnumSet.allOf(RtrType.class));
        MpaHandshake ini = initiator(ip, new byte[0]);
        MpaHandshake res = responder(rp);
        deliver(ini, res, Seeds.random(5));
        res.accept(new byte[0]);
        deliver(res, ini, Seeds.random(6));
        assertEquals(Optional.of(rtr), ini.parameters().rtr());
        assertEquals(Optional.of(rtr), res.parameters().rtr());

        StreamParameters sa = StreamParameters.of(ini.parameters(), 1448, true);
        StreamParameters sb = StreamParameters.of(res.parameters(), 1448, true);
        try (StreamPair p = new StreamPair(sa, sb, Seeds.random(7))) {
            p.a.stream.queueRtr(rtr);
            p.b.stream.holdTransmitUntilFirstFpdu();
            Region dst = p.b.register(64, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            Region src = p.a.register(64, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            if (rtr == RtrType.SEND) {
                p.b.postRecv(r -> r.wrId(100)); // RFC 6581 §9.3: a Send RTR consumes a receive
            }
            p.b.postRecv(r -> r.wrId(101).addSge(dst.stag(), 0, 64));
            p.b.postSend(w -> w.wrId(1).opcode(WrOpcode.RDMA_WRITE).signaled(true).addSge(dst.stag(), 0, 8)
                    .remote(src.iova(), src.stag()));
            assertEquals(0, p.b.stream.transmit(p.b.sink), "the responder sends nothing before the RTR");
            assertEquals(1, p.a.stream.transmit(p.a.sink), "the RTR goes out first, alone");
            p.a.postSend(w -> w.wrId(2).opcode(WrOpcode.SEND).signaled(true).addSge(src.stag(), 0, 64));
            p.pump();
            assertSame(WcStatus.SUCCESS, p.b.sendCq.take().status());
            assertSame(WcStatus.SUCCESS, p.a.sendCq.take().status());
            if (rtr == RtrType.SEND) {
                var rtrRecv = p.b.recvCq.take();
                assertEquals(100, rtrRecv.wrId());
                assertEquals(0, rtrRecv.byteLen());
            }
            var recv = p.b.recvCq.take();
            assertEquals(101, recv.wrId());
            assertSame(WcOpcode.RECV, recv.opcode());
            assertSame(RdmapStream.State.RTS, p.a.stream.state());
            assertSame(RdmapStream.State.RTS, p.b.stream.state());
            assertEquals(0, p.a.stream.outstandingReads());
        }
    }
}
