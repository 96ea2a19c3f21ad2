package org.jwarp.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jwarp.stack.StagTable.Region;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CounterNames;
import org.jwarp.verbs.Stag;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;
import org.jwarp.wire.fpdu.Fpdu;
import org.jwarp.wire.fpdu.Seeds;
import org.jwarp.wire.rdmap.DdpError;
import org.jwarp.wire.rdmap.MpaError;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/**
 * Zero-copy receive ({@link RdmapStream#directPlacement()} / {@link RdmapStream#placedDirectly}):
 * the receiver places parts of payloads straight into the offered pieces, cut at random, the rest
 * through {@link RdmapStream#receive}; data is compared byte for byte. Placement is offered only
 * after a segment's checks passed, the last byte of a Write is held back, and a bad CRC after
 * direct placement still terminates the stream with nothing completed as a success.
 */
class StreamDirectPlacementTest {

    static final int RW = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ;
    /** A loopback-sized MULPDU (MTU 65536) and an Ethernet-sized one. */
    static final StreamParameters BIG = new StreamParameters(true, false, false, 65_000, 8, 8, true);
    static final StreamParameters NO_CRC = new StreamParameters(false, false, false, 65_000, 8, 8, true);
    static final StreamParameters MARKERS = new StreamParameters(true, true, true, 1400, 8, 8, true);

    static StreamPair direct(StreamParameters p, long seed) {
        return new StreamPair(p, p, Seeds.random(seed)).directReceive(1);
    }

    @ParameterizedTest
    @ValueSource(ints = {1, 2, 4095, 4096, 65536, 200_000, 1 << 20})
    void writesReadsAndSendsArePlacedByteForByte(int size) {
        for (StreamParameters params : new StreamParameters[] {BIG, NO_CRC, StreamPair.defaults(), MARKERS}) {
            try (StreamPair p = direct(params, size * 31L + params.mulpdu())) {
                Region src = p.a.register(size + 5, Access.LOCAL_WRITE);
                Region dst = p.b.register(size + 11, RW);
                Region back = p.a.register(size + 3, Access.LOCAL_WRITE);
                Region recv = p.b.register(size + 7, Access.LOCAL_WRITE);
                StreamOperationsTest.fill(src.segment(), size);
                p.a.postSend(w -> w.wrId(1).opcode(WrOpcode.RDMA_WRITE).addSge(src.stag(), 5, size)
                        .remote(dst.iova() + 11, dst.stag()));
                p.a.postSend(w -> w.wrId(2).opcode(WrOpcode.RDMA_READ).signaled(true).addSge(back.stag(), 3, size)
                        .remote(dst.iova() + 11, dst.stag()));
                p.b.postRecv(r -> r.wrId(3).addSge(recv.stag(), 7, size));
                p.a.postSend(w -> w.wrId(4).opcode(WrOpcode.SEND).signaled(true).addSge(src.stag(), 5, size));
                p.pump();
                // the Send completes when handed to the LLP, the Read when its response is placed
                for (int k = 0; k < 2; k++) {
                    WorkCompletion s = p.a.sendCq.take();
                    assertSame(WcStatus.SUCCESS, s.status(), s.toString());
                    assertSame(s.wrId() == 2 ? WcOpcode.RDMA_READ : WcOpcode.SEND, s.opcode());
                }
                WorkCompletion r = p.b.recvCq.take();
                assertSame(WcStatus.SUCCESS, r.status(), r.toString());
                assertEquals(size, r.byteLen());
                StreamOperationsTest.assertSameBytes(src.segment(), 5, dst.segment(), 11, size);
                StreamOperationsTest.assertSameBytes(src.segment(), 5, back.segment(), 3, size);
                StreamOperationsTest.assertSameBytes(src.segment(), 5, recv.segment(), 7, size);
                if (size >= 4096 && !params.markersRx()) {
                    assertTrue(p.b.directBytes() > 0 && p.a.directBytes() > 0,
                            "B placed " + p.b.directBytes() + ", A " + p.a.directBytes());
                }
                assertEquals(0, p.a.counters.get(p.a.counters.require(CounterNames.CRC_ERRORS)));
            }
        }
    }

    @Test
    void aSendIsScatteredAcrossSeveralEntriesAtUnalignedOffsets() {
        long placed = 0;
        for (int seed = 0; seed < 20; seed++) {
            try (StreamPair p = direct(seed % 2 == 0 ? BIG : StreamPair.defaults(), seed)) {
                Region s1 = p.a.register(50_000, Access.LOCAL_WRITE);
                Region d1 = p.b.register(70_001, Access.LOCAL_WRITE);
                Region d2 = p.b.register(9_999, Access.LOCAL_WRITE);
                StreamOperationsTest.fill(s1.segment(), seed);
                // 40 001 bytes into 1 + 0 + 30 000 + 9 999 + 1 (+ 99 unused)
                p.b.postRecv(r -> r.wrId(1).addSge(d1.stag(), 3, 1).addSge(d2.stag(), 0, 0)
                        .addSge(d1.stag(), 7, 30_000).addSge(d2.stag(), 0, 9_999).addSge(d1.stag(), 60_001, 100));
                p.a.postSend(w -> w.wrId(2).opcode(WrOpcode.SEND).addSge(s1.stag(), 1, 40_001));
                p.pump();
                WorkCompletion r = p.b.recvCq.take();
                assertSame(WcStatus.SUCCESS, r.status());
                assertEquals(40_001, r.byteLen());
                StreamOperationsTest.assertSameBytes(s1.segment(), 1, d1.segment(), 3, 1);
                StreamOperationsTest.assertSameBytes(s1.segment(), 2, d1.segment(), 7, 30_000);
                StreamOperationsTest.assertSameBytes(s1.segment(), 30_002, d2.segment(), 0, 9_999);
                StreamOperationsTest.assertSameBytes(s1.segment(), 40_001, d1.segment(), 60_001, 1);
                placed += p.b.directBytes();
            }
        }
        assertTrue(placed > 0);
    }

    @Test
    void theOfferNamesEveryPieceOfTheReceiveAndTheTrailer() {
        try (StreamPair p = direct(BIG, 1)) {
            Region s1 = p.a.register(10_000, Access.LOCAL_WRITE);
            Region d1 = p.b.register(10_000, Access.LOCAL_WRITE);
            Region d2 = p.b.register(10_000, Access.LOCAL_WRITE);
            p.b.postRecv(r -> r.wrId(1).addSge(d1.stag(), 5, 3).addSge(d2.stag(), 1, 4000).addSge(d1.stag(), 100, 9000));
            p.a.postSend(w -> w.wrId(2).opcode(WrOpcode.SEND).addSge(s1.stag(), 0, 5001));
            byte[] wire = p.takeFramed(p.a);
            int header = Fpdu.LENGTH_FIELD + 18;
            assertEquals(0, p.b.stream.directPlacement().length(), "nothing before the header is checked");
            p.b.stream.receive(MemorySegment.ofArray(wire), 0, header + 2);
            DirectPlacement d = p.b.stream.directPlacement();
            assertEquals(4999, d.length());
            assertEquals(3, d.pieces());
            assertSame(d1.segment(), d.segment(0));
            assertEquals(5 + 2, d.offset(0));
            assertEquals(1, d.length(0));
            assertSame(d2.segment(), d.segment(1));
            assertEquals(1, d.offset(1));
            assertEquals(4000, d.length(1));
            assertSame(d1.segment(), d.segment(2));
            assertEquals(100, d.offset(2));
            assertEquals(998, d.length(2));
            assertEquals(Fpdu.pad(18 + 5001) + Fpdu.CRC_LENGTH, d.trailer());
            assertEquals(5001, d.segmentPayload());
            assertEquals(5001, p.b.stream.recentSegmentPayload());
            assertTrue(p.b.stream.insidePayload());
            assertThrows(IllegalArgumentException.class, () -> p.b.stream.placedDirectly(5000));
        }
    }

    @Test
    void theLastByteOfAWriteIsHeldBackForTheStream() {
        try (StreamPair p = direct(BIG, 2)) {
            Region src = p.a.register(1000, Access.LOCAL_WRITE);
            Region dst = p.b.register(1000, RW);
            StreamOperationsTest.fill(src.segment(), 2);
            src.segment().set(ValueLayout.JAVA_BYTE, 999, (byte) 0x5A);
            p.a.postSend(w -> w.wrId(1).opcode(WrOpcode.RDMA_WRITE).addSge(src.stag(), 0, 1000)
                    .remote(dst.iova(), dst.stag()));
            byte[] wire = p.takeFramed(p.a);
            int header = Fpdu.LENGTH_FIELD + 14;
            MemorySegment in = MemorySegment.ofArray(wire);
            p.b.stream.receive(in, 0, header);
            DirectPlacement d = p.b.stream.directPlacement();
            assertEquals(999, d.length(), "the last byte comes through receive, after a release fence");
            assertEquals(1 + Fpdu.pad(1014) + Fpdu.CRC_LENGTH, d.trailer());
            MemorySegment.copy(in, header, d.segment(0), d.offset(0), 999);
            p.b.stream.placedDirectly(999);
            assertEquals(0, p.b.stream.directPlacement().length());
            assertEquals(0, dst.segment().get(ValueLayout.JAVA_BYTE, 999), "not yet placed");
            p.b.stream.receive(in, header + 999, wire.length - header - 999);
            assertEquals(1, p.b.stream.fpdusReceived());
            StreamOperationsTest.assertSameBytes(src.segment(), 0, dst.segment(), 0, 1000);
            assertEquals(999, p.b.directBytes());
        }
    }

    @Test
    void recentSegmentPayloadLooksBackOverTheLastMessages() {
        try (StreamPair p = new StreamPair(StreamPair.defaults(), StreamPair.defaults(), Seeds.random(5))) {
            Region src = p.a.register(10_000, Access.LOCAL_WRITE);
            Region dst = p.b.register(10_000, RW);
            assertEquals(0, p.b.stream.recentSegmentPayload());
            // 5000 bytes at MULPDU 1442: segments of 1428 and a 716-byte tail
            p.a.postSend(w -> w.opcode(WrOpcode.RDMA_WRITE).addSge(src.stag(), 0, 5000).remote(dst.iova(), dst.stag()));
            p.pump();
            assertEquals(1428, p.b.stream.recentSegmentPayload());
            assertTrue(!p.b.stream.insidePayload());
            for (int i = 1; i <= RdmapStream.RECENT_MESSAGES; i++) {
                p.a.postSend(w -> w.opcode(WrOpcode.RDMA_WRITE).addSge(src.stag(), 0, 8).remote(dst.iova(), dst.stag()));
                p.pump();
                assertEquals(i < RdmapStream.RECENT_MESSAGES ? 1428 : 8, p.b.stream.recentSegmentPayload(), "after " + i);
            }
        }
    }

    @Test
    void noPlacementIsOfferedForASegmentThatFailedItsChecks() {
        try (StreamPair p = direct(BIG, 3)) {
            Region src = p.a.register(8000, Access.LOCAL_WRITE);
            Region dst = p.b.register(8000, RW);
            // an STag with the wrong key: RFC 5041 §7.1 refuses it before one byte is placed
            p.a.postSend(w -> w.wrId(1).opcode(WrOpcode.RDMA_WRITE).addSge(src.stag(), 0, 8000)
                    .remote(dst.iova(), Stag.withNextKey(dst.stag())));
            byte[] wire = p.takeFramed(p.a);
            p.b.stream.receive(MemorySegment.ofArray(wire), 0, Fpdu.LENGTH_FIELD + 14 + 10);
            assertEquals(0, p.b.stream.directPlacement().length());
            // RFC 5044 §4.4: the violation is answered once the FPDU's CRC has held
            p.b.stream.receive(MemorySegment.ofArray(wire), Fpdu.LENGTH_FIELD + 14 + 10,
                    wire.length - (Fpdu.LENGTH_FIELD + 14 + 10));
            assertSame(DdpError.INVALID_STAG, p.b.stream.terminateCause());
        }
        try (StreamPair p = direct(BIG, 4)) {
            Region src = p.a.register(8000, Access.LOCAL_WRITE);
            // a Send with no receive posted (RFC 5041 §7.2, no buffer available)
            p.a.postSend(w -> w.wrId(1).opcode(WrOpcode.SEND).addSge(src.stag(), 0, 8000));
            byte[] wire = p.takeFramed(p.a);
            p.b.stream.receive(MemorySegment.ofArray(wire), 0, Fpdu.LENGTH_FIELD + 18 + 10);
            assertEquals(0, p.b.stream.directPlacement().length());
            p.b.stream.receive(MemorySegment.ofArray(wire), Fpdu.LENGTH_FIELD + 18 + 10,
                    wire.length - (Fpdu.LENGTH_FIELD + 18 + 10));
            assertSame(DdpError.NO_BUFFER_AVAILABLE, p.b.stream.terminateCause());
        }
    }

    @ParameterizedTest
    @ValueSource(booleans = {false, true})
    void aBadCrcAfterDirectPlacementTerminatesAndCompletesNothingAsSuccess(boolean send) {
        for (int seed = 0; seed < 8; seed++) {
            try (StreamPair p = direct(BIG, 100 + seed)) {
                Region src = p.a.register(60_000, Access.LOCAL_WRITE);
                Region dst = p.b.register(60_000, RW);
                StreamOperationsTest.fill(src.segment(), seed);
                p.b.postRecv(r -> r.wrId(7).addSge(dst.stag(), 0, 60_000));
                if (send) {
                    p.a.postSend(w -> w.wrId(1).opcode(WrOpcode.SEND).signaled(true).addSge(src.stag(), 0, 60_000));
                } else {
                    p.a.postSend(w -> w.wrId(1).opcode(WrOpcode.RDMA_WRITE).signaled(true).addSge(src.stag(), 0, 60_000)
                            .remote(dst.iova(), dst.stag()));
                }
                byte[] wire = p.takeFramed(p.a);
                wire[wire.length / 2] ^= 0x10; // in the payload: a bit error TCP's checksum missed
                MemorySegment in = MemorySegment.ofArray(wire);
                int header = Fpdu.LENGTH_FIELD + (send ? 18 : 14);
                p.b.stream.receive(in, 0, header);
                DirectPlacement d = p.b.stream.directPlacement();
                long n = d.length();
                assertEquals(send ? 60_000 : 59_999, n);
                MemorySegment.copy(in, header, d.segment(0), d.offset(0), n);
                p.b.stream.placedDirectly(n);
                p.b.stream.receive(in, header + n, wire.length - header - n);
                // RFC 5044 §8: MPA error 2 (CRC), the Terminate is the last thing B sends
                p.pump();
                assertEquals(StreamErrorsTest.control(MpaError.CRC_ERROR, false, false, false),
                        StreamErrorsTest.terminateSentBy(p.b));
                assertEquals(1, p.b.counters.get(p.b.counters.require(CounterNames.CRC_ERRORS)));
                assertEquals(n, p.b.directBytes());
                WorkCompletion recv = p.b.recvCq.take();
                assertEquals(7, recv.wrId());
                assertSame(WcStatus.WR_FLUSH_ERR, recv.status(), "the placed data is never delivered");
                assertTrue(p.b.recvCq.completions.isEmpty());
                // the sender's request was handed to the LLP: it completed; the peer's Terminate stops A
                WorkCompletion s = p.a.sendCq.take();
                assertSame(send ? WcOpcode.SEND : WcOpcode.RDMA_WRITE, s.opcode());
                assertSame(WcStatus.SUCCESS, s.status());
                StreamErrorsTest.assertBothStopped(p, MpaError.CRC_ERROR);
            }
        }
    }

    @Test
    void randomMixesOfOperationsSurviveRandomDirectSplits() {
        for (int seed = 0; seed < 30; seed++) {
            var rnd = Seeds.random(Seeds.caseSeed("direct-mix", seed));
            StreamParameters params = switch (seed % 3) {
                case 0 -> BIG;
                case 1 -> StreamPair.defaults();
                default -> MARKERS;
            };
            try (StreamPair p = new StreamPair(params, params, rnd).directReceive(rnd.nextInt(4) * 1000L)) {
                Region src = p.a.register(300_000, Access.LOCAL_WRITE);
                Region dst = p.b.register(300_000, RW);
                Region recv = p.b.register(300_000, Access.LOCAL_WRITE);
                StreamOperationsTest.fill(src.segment(), seed);
                for (int i = 0; i < 12; i++) {
                    int size = rnd.nextInt(4) == 0 ? rnd.nextInt(100) : rnd.nextInt(90_000);
                    int at = rnd.nextInt(300_000 - size);
                    int to = rnd.nextInt(300_000 - size);
                    boolean send = rnd.nextBoolean();
                    if (send) {
                        p.b.postRecv(r -> r.wrId(at).addSge(recv.stag(), to, size / 3).addSge(recv.stag(), to + size / 3,
                                size - size / 3));
                        p.a.postSend(w -> w.wrId(1).opcode(WrOpcode.SEND).addSge(src.stag(), at, size));
                    } else {
                        p.a.postSend(w -> w.wrId(1).opcode(WrOpcode.RDMA_WRITE).addSge(src.stag(), at, size)
                                .remote(dst.iova() + to, dst.stag()));
                    }
                    p.pump();
                    if (send) {
                        WorkCompletion r = p.b.recvCq.take();
                        assertSame(WcStatus.SUCCESS, r.status(), "seed " + seed + ": " + r);
                        assertEquals(size, r.byteLen());
                    }
                    StreamOperationsTest.assertSameBytes(src.segment(), at, (send ? recv : dst).segment(), to, size);
                }
                assertSame(RdmapStream.State.RTS, p.b.stream.state(), "seed " + seed);
            }
        }
    }
}
