package org.jwarp.stack;

import static org.jwarp.stack.StreamOperationsTest.assertSameBytes;
import static org.jwarp.stack.StreamOperationsTest.fill;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.List;
import java.util.SplittableRandom;
import java.util.function.BiConsumer;
import org.jwarp.stack.StagTable.Region;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.SendFlags;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

/**
 * The small-message send ({@link RdmapStream#sendDirect}) against the general path it stands in
 * for: the same request, sent each way on two identical stream pairs, must put the same bytes on
 * the wire and complete the same way on both sides; a request it must not take leaves no trace.
 */
class StreamDirectSendTest {

    private static final int RW = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ;

    /** One request, filled with the regions of the pair it is posted on. */
    private interface Request extends BiConsumer<SendWr, Regions> {
    }

    private record Regions(Region src, Region dst, MemorySegment inline) {
    }

    /** The same regions on every pair, down to their tagged offsets (the wire carries them). */
    private static Regions regions(StreamPair p, long seed) {
        Region src = p.a.stags.register(StreamPair.PD, p.arena.allocate(2048, 8), 0x10000, Access.LOCAL_WRITE);
        Region dst = p.b.stags.register(StreamPair.PD, p.arena.allocate(2048, 8), 0x20000, RW);
        fill(src.segment(), seed);
        MemorySegment inline = MemorySegment.ofArray(new byte[64]);
        fill(inline, seed + 1);
        return new Regions(src, dst, inline);
    }

    private static final List<Request> ONE_FPDU = List.of(
            (w, r) -> w.wrId(1).opcode(WrOpcode.RDMA_WRITE).signaled(true).addSge(r.src.stag(), 3, 8)
                    .remote(r.dst.iova() + 5, r.dst.stag()),
            (w, r) -> w.wrId(2).opcode(WrOpcode.RDMA_WRITE).addSge(r.src.stag(), 0, 1400)
                    .remote(r.dst.iova(), r.dst.stag()),
            (w, r) -> w.wrId(3).opcode(WrOpcode.SEND).signaled(true).addSge(r.src.stag(), 1, 64),
            (w, r) -> w.wrId(4).opcode(WrOpcode.SEND).flags(SendFlags.SOLICITED | SendFlags.SIGNALED)
                    .addSge(r.src.stag(), 0, 1024),
            (w, r) -> w.wrId(5).opcode(WrOpcode.SEND).flags(SendFlags.INLINE | SendFlags.SIGNALED)
                    .addInlineSge(r.inline, 0, 60),
            (w, r) -> w.wrId(6).opcode(WrOpcode.SEND).signaled(true),
            (w, r) -> w.wrId(7).opcode(WrOpcode.RDMA_WRITE).flags(SendFlags.INLINE | SendFlags.SIGNALED)
                    .addInlineSge(r.inline, 4, 8).remote(r.dst.iova() + 100, r.dst.stag()),
            (w, r) -> w.wrId(8).opcode(WrOpcode.RDMA_READ).signaled(true).addSge(r.src.stag(), 16, 2000)
                    .remote(r.dst.iova() + 8, r.dst.stag()));

    @Test
    void eachOneFpduRequestPutsTheGeneralPathsBytesOnTheWireAndCompletesAlike() {
        for (int i = 0; i < ONE_FPDU.size(); i++) {
            Request req = ONE_FPDU.get(i);
            try (StreamPair general = pair(i); StreamPair direct = pair(i)) {
                Regions g = regions(general, i);
                Regions d = regions(direct, i);
                general.b.postRecv(r -> r.wrId(9).addSge(g.dst.stag(), 0, 2048));
                direct.b.postRecv(r -> r.wrId(9).addSge(d.dst.stag(), 0, 2048));
                general.a.postSend(w -> req.accept(w, g));
                general.pump();
                SendWr wr = new SendWr(4);
                req.accept(wr, d);
                assertTrue(direct.a.stream.sendDirect(wr, direct.a.sink), "request " + i);
                assertNull(direct.a.sq.peek(), "the direct send takes no send-queue slot");
                direct.pump();
                assertArrayEquals(general.a.sentBytes(), direct.a.sentBytes(), "request " + i);
                assertSameCompletions(general.a.sendCq, direct.a.sendCq, "request " + i);
                assertSameCompletions(general.b.recvCq, direct.b.recvCq, "request " + i);
                assertSameBytes(g.dst.segment(), 0, d.dst.segment(), 0, 2048);
                assertSameBytes(g.src.segment(), 0, d.src.segment(), 0, 2048);
                assertSame(RdmapStream.State.RTS, direct.a.stream.state());
                assertSame(RdmapStream.State.RTS, direct.b.stream.state());
            }
        }
    }

    @Test
    void sendsInterleavedWithQueuedOnesKeepMsnsAndCompletionOrder() {
        try (StreamPair p = pair(42)) {
            Regions r = regions(p, 42);
            for (int k = 0; k < 6; k++) {
                int n = k;
                p.b.postRecv(w -> w.wrId(100 + n).addSge(r.dst.stag(), n * 100L, 100));
            }
            for (int k = 0; k < 6; k++) {
                int n = k;
                if (k % 2 == 0) {
                    p.a.postSend(w -> w.wrId(n).opcode(WrOpcode.SEND).signaled(true).addSge(r.src.stag(), n * 100L, 100));
                    p.pump();
                } else {
                    SendWr wr = new SendWr(1).wrId(n).opcode(WrOpcode.SEND).signaled(true)
                            .addSge(r.src.stag(), n * 100L, 100);
                    assertTrue(p.a.stream.sendDirect(wr, p.a.sink));
                    p.pump();
                }
            }
            for (int k = 0; k < 6; k++) {
                assertEquals(k, p.a.sendCq.take().wrId());
                WorkCompletion rc = p.b.recvCq.take();
                assertEquals(100 + k, rc.wrId());
                assertSame(WcStatus.SUCCESS, rc.status());
            }
            assertSameBytes(r.src.segment(), 0, r.dst.segment(), 0, 600);
        }
    }

    @Test
    void requestsItMustNotTakeLeaveNoTrace() {
        try (StreamPair p = pair(7)) {
            Regions r = regions(p, 7);
            Region big = p.a.register(4096, Access.LOCAL_WRITE);
            // more than one FPDU, more than one entry, a Write with Immediate, an unknown lkey
            assertDeclined(p, new SendWr(1).wrId(1).opcode(WrOpcode.SEND).addSge(big.stag(), 0, 1443));
            assertDeclined(p, new SendWr(2).wrId(2).opcode(WrOpcode.SEND).addSge(r.src.stag(), 0, 8)
                    .addSge(r.src.stag(), 8, 8));
            assertDeclined(p, new SendWr(1).wrId(3).opcode(WrOpcode.RDMA_WRITE_WITH_IMM).addSge(r.src.stag(), 0, 8)
                    .remote(r.dst.iova(), r.dst.stag()).immData(9));
            assertDeclined(p, new SendWr(1).wrId(4).opcode(WrOpcode.SEND).addSge(0x7F7F7F00, 0, 8));
            // something in the send queue goes first
            p.a.postSend(w -> w.wrId(5).opcode(WrOpcode.RDMA_WRITE).addSge(r.src.stag(), 0, 8)
                    .remote(r.dst.iova(), r.dst.stag()));
            assertDeclined(p, new SendWr(1).wrId(6).opcode(WrOpcode.RDMA_WRITE).addSge(r.src.stag(), 0, 8)
                    .remote(r.dst.iova(), r.dst.stag()));
            p.pump();
            // a fence waits for the Read before it
            p.a.postSend(w -> w.wrId(7).opcode(WrOpcode.RDMA_READ).addSge(r.src.stag(), 0, 8)
                    .remote(r.dst.iova(), r.dst.stag()));
            p.a.stream.transmit(p.a.sink);
            assertDeclined(p, new SendWr(1).wrId(8).opcode(WrOpcode.RDMA_WRITE).flags(SendFlags.FENCE)
                    .addSge(r.src.stag(), 0, 8).remote(r.dst.iova(), r.dst.stag()));
            p.pump();
            assertSame(RdmapStream.State.RTS, p.a.stream.state());
            assertSame(RdmapStream.State.RTS, p.b.stream.state());
        }
    }

    @Test
    void aReadBeyondTheOrdCreditIsLeftToTheSendQueue() {
        try (StreamPair p = pair(9)) {
            Regions r = regions(p, 9);
            int ord = StreamPair.defaults().ord();
            for (int k = 0; k < ord; k++) {
                SendWr read = new SendWr(1).wrId(k).opcode(WrOpcode.RDMA_READ).signaled(true)
                        .addSge(r.src.stag(), k * 8L, 8).remote(r.dst.iova() + k * 8L, r.dst.stag());
                assertTrue(p.a.stream.sendDirect(read, p.a.sink), "read " + k);
            }
            assertDeclined(p, new SendWr(1).wrId(ord).opcode(WrOpcode.RDMA_READ).addSge(r.src.stag(), 0, 8)
                    .remote(r.dst.iova(), r.dst.stag()));
            p.pump();
            for (int k = 0; k < ord; k++) {
                WorkCompletion wc = p.a.sendCq.take();
                assertEquals(k, wc.wrId());
                assertSame(WcStatus.SUCCESS, wc.status());
            }
            assertSameBytes(r.dst.segment(), 0, r.src.segment(), 0, ord * 8L);
        }
    }

    @Test
    void aRequestItDeclinesIsRefusedByTheSendQueueAsBefore() {
        try (StreamPair p = pair(8)) {
            SendWr bad = new SendWr(1).wrId(11).opcode(WrOpcode.SEND).signaled(true).addSge(0x4242, 0, 8);
            assertFalse(p.a.stream.sendDirect(bad, p.a.sink));
            p.a.postSend(w -> w.copyFrom(bad));
            p.pump();
            WorkCompletion wc = p.a.sendCq.take();
            assertEquals(11, wc.wrId());
            assertSame(WcStatus.LOC_PROT_ERR, wc.status());
            assertNotSame(RdmapStream.State.RTS, p.a.stream.state());
        }
    }

    private static void assertDeclined(StreamPair p, SendWr wr) {
        long framed = p.a.sink.pending();
        int completions = p.a.sendCq.size();
        assertFalse(p.a.stream.sendDirect(wr, p.a.sink), wr.toString());
        assertEquals(framed, p.a.sink.pending(), "nothing framed for " + wr);
        assertEquals(completions, p.a.sendCq.size(), "nothing completed for " + wr);
        assertSame(RdmapStream.State.RTS, p.a.stream.state());
    }

    private static void assertSameCompletions(ListCompletionSink expected, ListCompletionSink actual, String what) {
        assertEquals(expected.size(), actual.size(), what);
        while (expected.size() > 0) {
            WorkCompletion e = expected.take();
            WorkCompletion a = actual.take();
            assertEquals(e.toString(), a.toString(), what);
        }
    }

    private static StreamPair pair(long seed) {
        return new StreamPair(StreamPair.defaults(), StreamPair.defaults(), new SplittableRandom(seed));
    }
}
