package org.jwarp.stack;

import static org.jwarp.stack.StreamErrorsTest.control;
import static org.jwarp.stack.StreamErrorsTest.terminateSentBy;
import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;
import org.jwarp.stack.StagTable.Region;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.Stag;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;
import org.jwarp.wire.fpdu.Seeds;
import org.jwarp.wire.rdmap.DdpError;
import org.jwarp.wire.rdmap.TerminateError;

/**
 * Type 2 memory windows (RFC 5040 §2.1): bound by a work request in send-queue order, checked on
 * every tagged access (range, rights, the stream it was bound through), unbound by a local
 * invalidation or the peer's Send with Invalidate, and rebound under the next key.
 */
class MemoryWindowTest {

    static final int RW = Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ;

    private static StreamPair pair(long seed) {
        return new StreamPair(StreamPair.defaults(), StreamPair.defaults(), Seeds.random(seed));
    }

    /** B binds {@code window} as {@code newStag} over [offset, offset + length) of {@code mr}; returns the completion. */
    private static WorkCompletion bind(StreamPair p, int window, int newStag, Region mr, long offset, long length,
                                       int access) {
        p.b.postSend(w -> w.wrId(90).opcode(WrOpcode.BIND_MW).signaled(true)
                .bindMw(window, newStag, mr.stag(), offset, length, access));
        p.pump();
        return p.b.sendCq.take();
    }

    private static void write(StreamPair p, Region src, int length, int stag, long to) {
        p.a.postSend(w -> w.wrId(1).opcode(WrOpcode.RDMA_WRITE).signaled(true).addSge(src.stag(), 0, length)
                .remote(to, stag));
        p.pump();
        assertSame(WcStatus.SUCCESS, p.a.sendCq.take().status());
    }

    private static void assertTerminated(StreamPair p, TerminateError expected, int length, int stag, long to) {
        String hdr = String.format("c140%08x%016x", stag, to);
        assertEquals(control(expected, true, true, false) + String.format("%04x", length) + hdr, terminateSentBy(p.b));
    }

    @Test
    void aBoundWindowTakesWritesInItsRangeOnly() {
        try (StreamPair p = pair(1)) {
            Region src = p.a.register(4096, Access.LOCAL_WRITE);
            src.segment().fill((byte) 0x5a);
            Region mr = p.b.register(4096, RW);
            Region w = p.b.stags.allocWindow(StreamPair.PD);
            assertEquals(0, w.access(), "an unbound window grants nothing");
            int bound = Stag.withNextKey(w.stag());
            WorkCompletion c = bind(p, w.stag(), bound, mr, 1024, 512, Access.REMOTE_WRITE);
            assertSame(WcStatus.SUCCESS, c.status());
            assertSame(WcOpcode.BIND_MW, c.opcode());
            assertTrue(p.a.sentBytes().length == 0, "a bind puts nothing on the wire");

            write(p, src, 512, bound, mr.iova() + 1024);
            byte[] expected = new byte[512];
            java.util.Arrays.fill(expected, (byte) 0x5a);
            assertArrayEquals(expected, mr.segment().asSlice(1024, 512).toArray(ValueLayout.JAVA_BYTE));
            assertEquals(0, mr.segment().get(ValueLayout.JAVA_BYTE, 1023));
            assertEquals(0, mr.segment().get(ValueLayout.JAVA_BYTE, 1536));

            write(p, src, 8, bound, mr.iova() + 1532);   // 4 bytes past the window's end
            assertTerminated(p, DdpError.BASE_OR_BOUNDS_VIOLATION, 8, bound, mr.iova() + 1532);
        }
    }

    @Test
    void theOldKeyStopsAtARebindAndLocalInvalidationUnbinds() {
        try (StreamPair p = pair(2)) {
            Region src = p.a.register(64, Access.LOCAL_WRITE);
            Region mr = p.b.register(4096, RW);
            Region w = p.b.stags.allocWindow(StreamPair.PD);
            int first = Stag.withNextKey(w.stag());
            assertSame(WcStatus.SUCCESS, bind(p, w.stag(), first, mr, 0, 4096, Access.REMOTE_WRITE).status());
            int second = Stag.withNextKey(first);
            assertSame(WcStatus.SUCCESS, bind(p, first, second, mr, 0, 64, Access.REMOTE_WRITE).status());
            write(p, src, 8, second, mr.iova());
            p.b.postSend(x -> x.wrId(91).opcode(WrOpcode.LOCAL_INV).signaled(true).invalidateRkey(second));
            p.pump();
            WorkCompletion inv = p.b.sendCq.take();
            assertSame(WcStatus.SUCCESS, inv.status());
            assertSame(WcOpcode.LOCAL_INV, inv.opcode());
            write(p, src, 8, second, mr.iova());
            // RFC 5041 §7.2 has no access-rights code: an unbound window reads as an invalid STag, as siw reports it
            assertTerminated(p, DdpError.INVALID_STAG, 8, second, mr.iova());
        }
    }

    @Test
    void aWindowBoundThroughOneStreamIsNotAssociatedWithAnother() {
        StagTable device = new StagTable(64);
        try (StreamPair p1 = new StreamPair(StreamPair.defaults(), StreamPair.defaults(), Seeds.random(3), false,
                device, null);
             StreamPair p2 = new StreamPair(StreamPair.defaults(), StreamPair.defaults(), Seeds.random(4), false,
                     device, null, 3)) {
            MemorySegment m = p1.arena.allocate(4096);
            Region mr = device.register(StreamPair.PD, m, m.address(), RW);
            Region w = device.allocWindow(StreamPair.PD);
            int bound = Stag.withNextKey(w.stag());
            assertSame(WcStatus.SUCCESS, bind(p1, w.stag(), bound, mr, 0, 4096, Access.REMOTE_WRITE).status());
            Region src = p2.a.register(64, Access.LOCAL_WRITE);
            write(p2, src, 16, bound, mr.iova());
            assertTerminated(p2, DdpError.STAG_NOT_ASSOCIATED, 16, bound, mr.iova());
        }
    }

    @Test
    void thePeersSendWithInvalidateUnbindsTheWindow() {
        try (StreamPair p = pair(5)) {
            Region mr = p.b.register(4096, RW);
            Region w = p.b.stags.allocWindow(StreamPair.PD);
            int bound = Stag.withNextKey(w.stag());
            assertSame(WcStatus.SUCCESS, bind(p, w.stag(), bound, mr, 0, 100, Access.REMOTE_READ).status());
            p.b.postRecv(r -> r.wrId(7));
            p.a.postSend(x -> x.wrId(8).opcode(WrOpcode.SEND_WITH_INV).signaled(true).invalidateRkey(bound));
            p.pump();
            WorkCompletion r = p.b.recvCq.take();
            assertSame(WcStatus.SUCCESS, r.status());
            assertEquals(bound, r.invalidatedRkey());
            assertEquals(0, p.b.stags.current(bound).access(), "unbound");
            assertTrue(p.b.stags.current(bound).window());
        }
    }

    @Test
    void aBadBindCompletesWithABindErrorAndEndsTheStream() {
        try (StreamPair p = pair(6)) {
            Region readOnly = p.b.register(4096, Access.REMOTE_READ);
            Region w = p.b.stags.allocWindow(StreamPair.PD);
            WorkCompletion c = bind(p, w.stag(), Stag.withNextKey(w.stag()), readOnly, 0, 64, Access.REMOTE_WRITE);
            assertSame(WcStatus.MW_BIND_ERR, c.status(), "remote write over a region without local write");
            assertFalse(p.b.stags.current(w.stag()).access() != 0);
            assertTrue(p.b.stream.state() == RdmapStream.State.TERMINATING
                    || p.b.stream.state() == RdmapStream.State.ERROR, "the stream ends: " + p.b.stream.state());
        }
        try (StreamPair p = pair(7)) {
            Region mr = p.b.register(4096, RW);
            Region w = p.b.stags.allocWindow(StreamPair.PD);
            assertSame(WcStatus.MW_BIND_ERR, bind(p, w.stag(), w.stag(), mr, 0, 64, Access.REMOTE_READ).status(),
                    "the same key again");
        }
        try (StreamPair p = pair(8)) {
            Region mr = p.b.register(4096, RW);
            Region w = p.b.stags.allocWindow(StreamPair.PD);
            assertSame(WcStatus.MW_BIND_ERR, bind(p, w.stag(), Stag.withNextKey(w.stag()), mr, 4000, 200,
                    Access.REMOTE_READ).status(), "past the region's end");
            assertNotEquals(0, mr.length());
        }
    }
}
