package org.jwarp.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jwarp.stack.StagTable.Region;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.SendFlags;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;
import org.jwarp.wire.fpdu.Seeds;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

/** Every operation end to end between two streams, data verified byte for byte. */
class StreamOperationsTest {

    static final int RW = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ;

    static void fill(MemorySegment m, long seed) {
        var r = Seeds.random(seed);
        for (long i = 0; i < m.byteSize(); i += 8) {
            long v = r.nextLong();
            long n = Math.min(8, m.byteSize() - i);
            for (int k = 0; k < n; k++) {
                m.set(ValueLayout.JAVA_BYTE, i + k, (byte) (v >>> (8 * k)));
            }
        }
    }

    static void assertSameBytes(MemorySegment expected, long eOff, MemorySegment actual, long aOff, long n) {
        long mismatch = MemorySegment.mismatch(expected, eOff, eOff + n, actual, aOff, aOff + n);
        assertEquals(-1, mismatch, "first differing byte");
    }

    static StreamPair pair(long seed) {
        return new StreamPair(StreamPair.defaults(), StreamPair.defaults(), Seeds.random(seed));
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 4095, 4096, 65536, 1 << 20, 16 << 20})
    void sendAndReceive(int size) {
        try (StreamPair p = pair(size)) {
            Region src = p.a.register(size, Access.LOCAL_WRITE);
            Region dst = p.b.register(size, Access.LOCAL_WRITE);
            fill(src.segment(), size);
            p.b.postRecv(r -> r.wrId(11).addSge(dst.stag(), 0, size));
            p.a.postSend(w -> w.wrId(22).opcode(WrOpcode.SEND).signaled(true).addSge(src.stag(), 0, size));
            p.pump();
            WorkCompletion s = p.a.sendCq.take();
            assertEquals(22, s.wrId());
            assertSame(WcStatus.SUCCESS, s.status());
            assertSame(WcOpcode.SEND, s.opcode());
            assertEquals(size, s.byteLen());
            WorkCompletion r = p.b.recvCq.take();
            assertEquals(11, r.wrId());
            assertSame(WcStatus.SUCCESS, r.status());
            assertSame(WcOpcode.RECV, r.opcode());
            assertEquals(size, r.byteLen());
            assertSameBytes(src.segment(), 0, dst.segment(), 0, size);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 4095, 4096, 65536, 1 << 20, 16 << 20})
    void rdmaWrite(int size) {
        try (StreamPair p = pair(size + 1)) {
            Region src = p.a.register(size, Access.LOCAL_WRITE);
            Region dst = p.b.register(size + 16, RW);
            fill(src.segment(), size + 1);
            p.a.postSend(w -> w.wrId(5).opcode(WrOpcode.RDMA_WRITE).signaled(true).addSge(src.stag(), 0, size)
                    .remote(dst.iova() + 16, dst.stag()));
            p.pump();
            WorkCompletion s = p.a.sendCq.take();
            assertSame(WcStatus.SUCCESS, s.status());
            assertSame(WcOpcode.RDMA_WRITE, s.opcode());
            assertEquals(size, s.byteLen());
            assertTrue(p.b.recvCq.completions.isEmpty(), "a Write is never delivered to the peer's ULP");
            assertSameBytes(src.segment(), 0, dst.segment(), 16, size);
        }
    }

    @ParameterizedTest
    @ValueSource(ints = {0, 1, 4095, 4096, 65536, 1 << 20, 16 << 20})
    void rdmaRead(int size) {
        try (StreamPair p = pair(size + 2)) {
            Region sink = p.a.register(size + 3, Access.LOCAL_WRITE);
            Region source = p.b.register(size + 5, Access.LOCAL_WRITE | Access.REMOTE_READ);
            fill(source.segment(), size + 2);
            p.a.postSend(w -> w.wrId(9).opcode(WrOpcode.RDMA_READ).signaled(true).addSge(sink.stag(), 3, size)
                    .remote(source.iova() + 5, source.stag()));
            p.pump();
            WorkCompletion s = p.a.sendCq.take();
            assertEquals(9, s.wrId());
            assertSame(WcStatus.SUCCESS, s.status(), s.toString());
            assertSame(WcOpcode.RDMA_READ, s.opcode());
            assertEquals(size, s.byteLen());
            assertSameBytes(source.segment(), 5, sink.segment(), 3, size);
            assertEquals(0, p.a.stream.outstandingReads());
        }
    }

    @Test
    void writeWithImmediateDeliversTheImmediateAfterTheData() {
        try (StreamPair p = pair(1)) {
            Region src = p.a.register(1000, Access.LOCAL_WRITE);
            Region dst = p.b.register(1000, RW);
            fill(src.segment(), 3);
            p.b.postRecv(r -> r.wrId(1));
            p.a.postSend(w -> w.wrId(2).opcode(WrOpcode.RDMA_WRITE_WITH_IMM).signaled(true)
                    .addSge(src.stag(), 0, 1000).remote(dst.iova(), dst.stag()).immData(0xCAFEBABEL));
            p.pump();
            assertSame(WcStatus.SUCCESS, p.a.sendCq.take().status());
            WorkCompletion r = p.b.recvCq.take();
            assertSame(WcOpcode.RECV_RDMA_WITH_IMM, r.opcode());
            assertTrue(r.hasImm());
            assertEquals(0xCAFEBABEL, r.immData());
            assertSameBytes(src.segment(), 0, dst.segment(), 0, 1000);
        }
    }

    @Test
    void severalScatterGatherEntriesAtUnalignedOffsets() {
        try (StreamPair p = pair(2)) {
            Region s1 = p.a.register(5000, Access.LOCAL_WRITE);
            Region s2 = p.a.register(3000, Access.LOCAL_WRITE);
            Region d1 = p.b.register(7001, Access.LOCAL_WRITE);
            Region d2 = p.b.register(999, Access.LOCAL_WRITE);
            fill(s1.segment(), 1);
            fill(s2.segment(), 2);
            // gather 3333 + 0 + 2001 bytes; scatter into 1 + 4332 + 999 + 2 (the last SGE only partly used)
            p.b.postRecv(r -> r.wrId(1).addSge(d1.stag(), 3, 1).addSge(d1.stag(), 7, 4332).addSge(d2.stag(), 0, 999)
                    .addSge(d1.stag(), 5000, 100));
            p.a.postSend(w -> w.wrId(2).opcode(WrOpcode.SEND).signaled(true).addSge(s1.stag(), 1, 3333)
                    .addSge(s2.stag(), 17, 0).addSge(s2.stag(), 13, 2001));
            p.pump();
            assertEquals(5334, p.b.recvCq.take().byteLen());
            MemorySegment expected = MemorySegment.ofArray(new byte[5334]);
            MemorySegment.copy(s1.segment(), 1, expected, 0, 3333);
            MemorySegment.copy(s2.segment(), 13, expected, 3333, 2001);
            assertSameBytes(expected, 0, d1.segment(), 3, 1);
            assertSameBytes(expected, 1, d1.segment(), 7, 4332);
            assertSameBytes(expected, 4333, d2.segment(), 0, 999);
            assertSameBytes(expected, 5332, d1.segment(), 5000, 2);
        }
    }

    @Test
    void inlineSendReadsTheApplicationsBuffer() {
        try (StreamPair p = pair(3)) {
            Region dst = p.b.register(64, Access.LOCAL_WRITE);
            MemorySegment data = MemorySegment.ofArray("inline!".getBytes());
            p.b.postRecv(r -> r.wrId(1).addSge(dst.stag(), 0, 64));
            p.a.postSend(w -> w.wrId(2).opcode(WrOpcode.SEND).flags(SendFlags.INLINE | SendFlags.SIGNALED)
                    .addInlineSge(data, 0, 7));
            p.pump();
            assertEquals(7, p.b.recvCq.take().byteLen());
            assertSameBytes(data, 0, dst.segment(), 0, 7);
        }
    }

    @Test
    void solicitedSendsAreMarkedForSolicitedNotification() {
        try (StreamPair p = pair(4)) {
            Region dst = p.b.register(8, Access.LOCAL_WRITE);
            p.b.postRecv(r -> r.wrId(1).addSge(dst.stag(), 0, 8)).postRecv(r -> r.wrId(2).addSge(dst.stag(), 0, 8));
            p.a.postSend(w -> w.wrId(3).opcode(WrOpcode.SEND));
            p.a.postSend(w -> w.wrId(4).opcode(WrOpcode.SEND).flags(SendFlags.SOLICITED));
            p.pump();
            assertEquals(java.util.List.of(false, true), p.b.recvCq.solicited);
        }
    }

    @Test
    void aCompletionShowsOnlyOnceItsSlotIsFreeSoAFullQueueTakesARepostAtOnce() {
        try (StreamPair p = pair(6)) {
            Region src = p.a.register(64, Access.LOCAL_WRITE);
            Region dst = p.b.register(64, RW);
            for (int i = 0; i < 64; i++) {
                long id = i;
                p.b.postRecv(r -> r.wrId(id).addSge(dst.stag(), 0, 64));
                p.a.postSend(w -> w.wrId(id).opcode(WrOpcode.SEND).signaled(true).addSge(src.stag(), 0, 64));
            }
            // both queues are full; a consumer re-posts the moment it sees a completion (the
            // queue throws if the slot is not back yet)
            int[] reposted = new int[2];
            p.b.recvCq.onPublish = () -> {
                long id = 1000 + reposted[0]++;
                p.b.postRecv(r -> r.wrId(id).addSge(dst.stag(), 0, 64));
            };
            p.a.sendCq.onPublish = () -> {
                if (reposted[1] < 16) {
                    long id = 1000 + reposted[1]++;
                    p.a.postSend(w -> w.wrId(id).opcode(WrOpcode.SEND).signaled(true).addSge(src.stag(), 0, 64));
                }
            };
            p.pump();
            assertEquals(80, p.a.sendCq.completions.size());
            assertEquals(80, p.b.recvCq.completions.size());
            assertEquals(80, reposted[0]);
            assertEquals(64, p.b.rq.size(), "every receive re-posted");
            for (int i = 0; i < 80; i++) {
                WorkCompletion wc = p.b.recvCq.take();
                assertSame(WcStatus.SUCCESS, wc.status());
                assertEquals(i < 64 ? i : 1000 + i - 64, wc.wrId());
            }
        }
    }

    @Test
    void unsignaledRequestsCompleteSilentlyAndFreeTheirSlots() {
        try (StreamPair p = pair(5)) {
            Region src = p.a.register(64, Access.LOCAL_WRITE);
            Region dst = p.b.register(64, RW);
            for (int round = 0; round < 10; round++) {
                for (int i = 0; i < 60; i++) {
                    boolean last = i == 59;
                    long id = round * 100L + i;
                    p.a.postSend(w -> w.wrId(id).opcode(WrOpcode.RDMA_WRITE).signaled(last)
                            .addSge(src.stag(), 0, 64).remote(dst.iova(), dst.stag()));
                }
                p.pump();
                assertEquals(0, p.a.sq.size(), "every slot handed back");
                assertEquals(round * 100L + 59, p.a.sendCq.take().wrId());
                assertTrue(p.a.sendCq.completions.isEmpty());
            }
        }
    }

    @Test
    void sendWithInvalidateInvalidatesTheStag() {
        try (StreamPair p = pair(6)) {
            Region victim = p.b.register(64, RW);
            Region dst = p.b.register(8, Access.LOCAL_WRITE);
            p.b.postRecv(r -> r.wrId(1).addSge(dst.stag(), 0, 8));
            p.a.postSend(w -> w.wrId(2).opcode(WrOpcode.SEND_WITH_INV).invalidateRkey(victim.stag()));
            p.pump();
            WorkCompletion r = p.b.recvCq.take();
            assertTrue(r.hasInvalidate());
            assertEquals(victim.stag(), r.invalidatedRkey());
            Region after = p.b.stags.lookup(victim.stag());
            assertFalse(Access.has(after.access(), Access.REMOTE_WRITE));
        }
    }

    @Test
    void readsRespectOrdAndFenceOrdersAfterThem() {
        StreamParameters ord2 = new StreamParameters(true, false, false, 1442, 2, 8, true);
        try (StreamPair p = new StreamPair(ord2, StreamPair.defaults(), Seeds.random(7))) {
            Region sink = p.a.register(4096, Access.LOCAL_WRITE);
            Region source = p.b.register(4096, RW);
            fill(source.segment(), 7);
            for (int i = 0; i < 5; i++) {
                int k = i;
                p.a.postSend(w -> w.wrId(k).opcode(WrOpcode.RDMA_READ).signaled(true)
                        .addSge(sink.stag(), k * 512L, 512).remote(source.iova() + k * 512L, source.stag()));
            }
            // a fenced Write of the sink's first bytes back to the source: it must see the Reads done
            p.a.postSend(w -> w.wrId(99).opcode(WrOpcode.RDMA_WRITE).flags(SendFlags.FENCE | SendFlags.SIGNALED)
                    .addSge(sink.stag(), 0, 1536).remote(source.iova() + 2560, source.stag()));
            p.a.stream.transmit(p.a.sink);
            assertEquals(2, p.a.stream.outstandingReads(), "ORD 2 holds the third Read back");
            p.pump();
            for (int i = 0; i < 5; i++) {
                assertEquals(i, p.a.sendCq.take().wrId());
            }
            assertEquals(99, p.a.sendCq.take().wrId());
            assertSameBytes(source.segment(), 0, source.segment(), 2560, 1536);
        }
    }

    @Test
    void markersAndNoCrcCarryTheSameData() {
        StreamParameters markers = new StreamParameters(false, true, true, 1430, 4, 4, true);
        try (StreamPair p = new StreamPair(markers, markers, Seeds.random(8))) {
            Region src = p.a.register(100_000, RW);
            Region dst = p.b.register(100_000, RW);
            fill(src.segment(), 8);
            p.a.postSend(w -> w.wrId(1).opcode(WrOpcode.RDMA_WRITE).signaled(true).addSge(src.stag(), 0, 100_000)
                    .remote(dst.iova(), dst.stag()));
            p.b.postSend(w -> w.wrId(2).opcode(WrOpcode.RDMA_READ).signaled(true).addSge(dst.stag(), 0, 10)
                    .remote(src.iova() + 5, src.stag()));
            p.pump();
            assertSame(WcStatus.SUCCESS, p.a.sendCq.take().status());
            assertSame(WcStatus.SUCCESS, p.b.sendCq.take().status());
            assertSameBytes(src.segment(), 10, dst.segment(), 10, 100_000 - 10);
            assertSameBytes(src.segment(), 5, dst.segment(), 0, 10);
        }
    }

    /** A sink that keeps payload references: its barrier is the ULPDU bytes framed so far. */
    static final class HoldingSink implements FpduSink {
        private final FpduSink inner;
        long framed;

        HoldingSink(FpduSink inner) {
            this.inner = inner;
        }

        @Override
        public boolean hasRoom(int ulpduLength) {
            return inner.hasRoom(ulpduLength);
        }

        @Override
        public void frame(MemorySegment header, long headerOffset, int headerLength, MemorySegment payload,
                          long payloadOffset, int payloadLength) {
            inner.frame(header, headerOffset, headerLength, payload, payloadOffset, payloadLength);
            framed += headerLength + payloadLength;
        }

        @Override
        public long completionBarrier() {
            return framed;
        }
    }

    @Test
    void sendCompletionsWaitUntilTheirBytesLeaveAndStayInOrder() {
        try (StreamPair p = pair(9)) {
            Region src = p.a.register(100, Access.LOCAL_WRITE);
            Region dst = p.b.register(100, RW);
            Region back = p.a.register(100, Access.LOCAL_WRITE);
            for (int i = 1; i <= 2; i++) {
                int id = i;
                p.a.postSend(w -> w.wrId(id).opcode(WrOpcode.RDMA_WRITE).signaled(true).addSge(src.stag(), 0, 100)
                        .remote(dst.iova(), dst.stag()));
            }
            HoldingSink holding = new HoldingSink(p.a.sink);
            p.a.stream.transmit(holding);
            assertEquals(2 * (14 + 100), holding.framed);
            assertTrue(p.a.sendCq.completions.isEmpty(), "nothing completes while the sink holds the payload");
            p.a.stream.released(113);
            assertTrue(p.a.sendCq.completions.isEmpty());
            p.a.stream.released(114);
            assertEquals(1, p.a.sendCq.take().wrId());
            // a Read posted now completes when its response arrives, but not before the held Write
            p.a.postSend(w -> w.wrId(3).opcode(WrOpcode.RDMA_READ).signaled(true).addSge(back.stag(), 0, 100)
                    .remote(dst.iova(), dst.stag()));
            p.pump();
            assertEquals(0, p.a.stream.outstandingReads(), "the Read has its response");
            assertTrue(p.a.sendCq.completions.isEmpty(), "... yet waits behind Write 2");
            p.a.stream.released(228);
            assertEquals(2, p.a.sendCq.take().wrId());
            assertEquals(3, p.a.sendCq.take().wrId());
            assertSameBytes(src.segment(), 0, back.segment(), 0, 100);
        }
    }
}
