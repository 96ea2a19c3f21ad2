package org.jwarp.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

class WorkRequestTest {

    private static final int LKEY = Stag.of(5, 0x11);
    private static final int RKEY = Stag.of(9, 0x22);

    @Test
    void fluentSettersFillEveryField() {
        SendWr wr = new SendWr(2);
        assertSame(wr, wr.wrId(7).opcode(WrOpcode.RDMA_WRITE_WITH_IMM).flags(SendFlags.SIGNALED)
                .addFlags(SendFlags.SOLICITED).addSge(LKEY, 16, 100).remote(0x1000, RKEY).immData(0xCAFEL));
        assertEquals(7, wr.wrId());
        assertEquals(WrOpcode.RDMA_WRITE_WITH_IMM, wr.opcode());
        assertEquals(SendFlags.SIGNALED | SendFlags.SOLICITED, wr.flags());
        assertEquals(1, wr.numSge());
        assertEquals(LKEY, wr.sgeLkey(0));
        assertEquals(16, wr.sgeOffset(0));
        assertEquals(100, wr.sgeLength(0));
        assertEquals(0x1000, wr.remoteAddr());
        assertEquals(RKEY, wr.rkey());
        assertEquals(0xCAFEL, wr.immData());
        assertEquals(100, wr.totalLength());
        wr.signaled(false);
        assertEquals(SendFlags.SOLICITED, wr.flags());
        wr.sgeLength(0, 5);
        assertEquals(5, wr.totalLength());
    }

    @Test
    void resetRestoresDefaults() {
        SendWr wr = new SendWr(2).wrId(1).opcode(WrOpcode.ATOMIC_CMP_AND_SWP).flags(SendFlags.ALL)
                .addSge(LKEY, 0, 8).remote(8, RKEY).compareSwap(1, 2, 3, 4).invalidateRkey(RKEY).immData(5);
        wr.reset();
        assertEquals(0, wr.wrId());
        assertNull(wr.opcode());
        assertEquals(0, wr.flags());
        assertEquals(0, wr.numSge());
        assertEquals(0, wr.remoteAddr());
        assertEquals(Stag.INVALID, wr.rkey());
        assertEquals(Stag.INVALID, wr.invalidateRkey());
        assertEquals(0, wr.immData());
        assertEquals(0, wr.compareAdd());
        assertEquals(-1L, wr.compareMask());
        assertEquals(-1L, wr.swapOrAddMask());
        assertEquals(2, wr.maxSge());
    }

    @Test
    void atomicOperandsFollowRfc7306() {
        SendWr wr = new SendWr().fetchAdd(5);
        assertEquals(5, wr.compareAdd());
        assertEquals(0, wr.swapOrAddMask(), "plain add: mask 0");
        wr.compareSwap(10, 20);
        assertEquals(10, wr.compareAdd());
        assertEquals(20, wr.swap());
        assertEquals(-1L, wr.compareMask());
        assertEquals(-1L, wr.swapOrAddMask());
    }

    @Test
    void sgeCapacityIsFixed() {
        SendWr wr = new SendWr(2).addSge(LKEY, 0, 1).addSge(LKEY, 1, 1);
        IllegalStateException e = assertThrows(IllegalStateException.class, () -> wr.addSge(LKEY, 2, 1));
        assertTrue(e.getMessage().contains("at most 2 SGEs"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> wr.clearSges().addSge(LKEY, -1, 1));
        assertThrows(IllegalArgumentException.class, () -> wr.clearSges().addSge(LKEY, 0, -1));
        assertThrows(IndexOutOfBoundsException.class, () -> wr.sgeLkey(0));
        assertThrows(IllegalArgumentException.class, () -> new SendWr(0));
        RecvWr r = new RecvWr(1).addSge(LKEY, 0, 64);
        assertThrows(IllegalStateException.class, () -> r.addSge(LKEY, 64, 64));
        assertEquals(64, r.totalLength());
        assertEquals(PostStatus.TOO_MANY_SGE, new RecvWr(3).addSge(1, 0, 1).addSge(1, 0, 1).check(1));
        assertEquals(PostStatus.OK, r.check(1));
    }

    @Test
    void checkReportsTheFirstProblem() {
        SendWr wr = new SendWr(4);
        assertEquals(PostStatus.INVALID_WR, wr.check(4, 64, true, true), "no opcode");
        wr.opcode(WrOpcode.SEND).addSge(LKEY, 0, 10);
        assertEquals(PostStatus.OK, wr.check(4, 64, true, true));
        wr.flags(0x100);
        assertEquals(PostStatus.INVALID_WR, wr.check(4, 64, true, true), "unknown flag");
        wr.flags(SendFlags.INLINE);
        assertEquals(PostStatus.OK, wr.check(4, 64, true, true));
        assertEquals(PostStatus.INLINE_TOO_LONG, wr.check(4, 9, true, true));
        wr.addSge(LKEY, 0, 1);
        assertEquals(PostStatus.TOO_MANY_SGE, wr.check(1, 64, true, true));
        wr.reset().opcode(WrOpcode.RDMA_READ).flags(SendFlags.INLINE).addSge(LKEY, 0, 8);
        assertEquals(PostStatus.INVALID_WR, wr.check(4, 64, true, true), "inline read");
        MemorySegment heap = MemorySegment.ofArray(new byte[16]);
        wr.reset().opcode(WrOpcode.SEND).addInlineSge(heap, 0, 16);
        assertEquals(PostStatus.INVALID_WR, wr.check(4, 64, true, true), "unregistered SGE without INLINE");
        wr.addFlags(SendFlags.INLINE);
        assertEquals(PostStatus.OK, wr.check(4, 64, true, true));
        assertSame(heap, wr.sgeInlineSource(0));
        assertEquals(Stag.INVALID, wr.sgeLkey(0));
        wr.reset().opcode(WrOpcode.ATOMIC_FETCH_AND_ADD).addSge(LKEY, 0, 8).remote(0, RKEY).fetchAdd(1);
        assertEquals(PostStatus.OK, wr.check(4, 64, true, true));
        assertEquals(PostStatus.UNSUPPORTED_OPCODE, wr.check(4, 64, false, true));
        wr.sgeLength(0, 4);
        assertEquals(PostStatus.INVALID_WR, wr.check(4, 64, true, true), "atomic needs one 8-byte SGE");
        wr.reset().opcode(WrOpcode.RDMA_WRITE_WITH_IMM);
        assertEquals(PostStatus.UNSUPPORTED_OPCODE, wr.check(4, 64, true, false));
        assertEquals(PostStatus.OK, wr.check(4, 64, true, true), "zero-length write with immediate");
    }

    @Test
    void copyFromCopiesEverything() {
        MemorySegment heap = MemorySegment.ofArray(new byte[4]);
        SendWr a = new SendWr(3).wrId(9).opcode(WrOpcode.SEND_WITH_INV).flags(SendFlags.INLINE)
                .addSge(LKEY, 1, 2).addInlineSge(heap, 0, 4).invalidateRkey(RKEY);
        SendWr b = new SendWr(2).copyFrom(a);
        assertEquals(a.toString(), b.toString());
        assertSame(heap, b.sgeInlineSource(1));
        assertThrows(IllegalStateException.class, () -> new SendWr(1).copyFrom(a));
        RecvWr r = new RecvWr(2).wrId(3).addSge(LKEY, 4, 5);
        assertEquals(r.toString(), new RecvWr(1).copyFrom(r).toString());
    }

    @Test
    void opcodeTables() {
        assertEquals(0, WrOpcode.RDMA_WRITE.ibvValue());
        assertEquals(1, WrOpcode.RDMA_WRITE_WITH_IMM.ibvValue());
        assertEquals(2, WrOpcode.SEND.ibvValue());
        assertEquals(4, WrOpcode.RDMA_READ.ibvValue());
        assertEquals(5, WrOpcode.ATOMIC_CMP_AND_SWP.ibvValue());
        assertEquals(6, WrOpcode.ATOMIC_FETCH_AND_ADD.ibvValue());
        assertEquals(9, WrOpcode.SEND_WITH_INV.ibvValue());
        for (WrOpcode op : WrOpcode.values()) {
            assertSame(op, WrOpcode.ofIbv(op.ibvValue()));
            assertTrue(!op.consumesOrd() || op.hasRemoteTarget());
        }
        assertEquals(WrOpcode.SEND_WITH_IMM, WrOpcode.ofIbv(3));
        assertEquals(WrOpcode.LOCAL_INV, WrOpcode.ofIbv(7));
        assertEquals(WrOpcode.BIND_MW, WrOpcode.ofIbv(8));
        assertNull(WrOpcode.ofIbv(10), "IBV_WR_TSO is not offered");
        assertTrue(WrOpcode.BIND_MW.isLocal() && !WrOpcode.BIND_MW.consumesPeerRecv());
        assertEquals(-1, WrOpcode.LOCAL_INV.rdmapOpcode(false), "nothing on the wire");
        assertEquals(WcOpcode.BIND_MW, WrOpcode.BIND_MW.completionOpcode());
        assertEquals(0x100, WrOpcode.IMMEDIATE_DATA.ibvValue(), "no libibverbs opcode: a value outside their range");
        assertEquals(0x9, WrOpcode.SEND_WITH_IMM.rdmapOpcode(true), "the last message: Immediate Data with SE");
        assertEquals(0x8, WrOpcode.IMMEDIATE_DATA.rdmapOpcode(false));
        assertTrue(WrOpcode.SEND_WITH_IMM.consumesPeerRecv() && WrOpcode.IMMEDIATE_DATA.consumesPeerRecv());
        assertTrue(WrOpcode.SEND_WITH_IMM.needsRfc7306() && !WrOpcode.SEND.needsRfc7306());
        assertEquals(WcOpcode.SEND, WrOpcode.SEND_WITH_IMM.completionOpcode());
        assertEquals(WcOpcode.SEND, WrOpcode.SEND_WITH_INV.completionOpcode());
        assertEquals(WcOpcode.RDMA_WRITE, WrOpcode.RDMA_WRITE_WITH_IMM.completionOpcode());
        assertEquals(WcOpcode.FETCH_ADD, WrOpcode.ATOMIC_FETCH_AND_ADD.completionOpcode());
        // RFC 5040 §4.1 / RFC 7306 §4.1 opcodes (iwarp-wire.md §5.2).
        assertEquals(0x3, WrOpcode.SEND.rdmapOpcode(false));
        assertEquals(0x5, WrOpcode.SEND.rdmapOpcode(true));
        assertEquals(0x4, WrOpcode.SEND_WITH_INV.rdmapOpcode(false));
        assertEquals(0x6, WrOpcode.SEND_WITH_INV.rdmapOpcode(true));
        assertEquals(0x0, WrOpcode.RDMA_WRITE.rdmapOpcode(true));
        assertEquals(0x8, WrOpcode.RDMA_WRITE_WITH_IMM.rdmapOpcode(false));
        assertEquals(0x9, WrOpcode.RDMA_WRITE_WITH_IMM.rdmapOpcode(true));
        assertEquals(0x1, WrOpcode.RDMA_READ.rdmapOpcode(false));
        assertEquals(0xA, WrOpcode.ATOMIC_FETCH_AND_ADD.rdmapOpcode(false));
        assertEquals(0x0, WrOpcode.ATOMIC_FETCH_AND_ADD.atomicOpcode());
        assertEquals(0x2, WrOpcode.ATOMIC_CMP_AND_SWP.atomicOpcode());
        assertEquals(-1, WrOpcode.SEND.atomicOpcode());
        assertTrue(WrOpcode.RDMA_WRITE_WITH_IMM.consumesPeerRecv());
        assertTrue(!WrOpcode.RDMA_WRITE.consumesPeerRecv());
    }

    @Test
    void postStatusEncodesCodeAndIndex() {
        assertTrue(PostStatus.isOk(PostStatus.OK));
        assertEquals(-1, PostStatus.badIndex(PostStatus.OK));
        assertEquals(5, PostStatus.postedCount(PostStatus.OK, 5));
        for (int code = 1; code <= 7; code++) {
            for (int index : new int[] {0, 1, 31, 0x7F_FFFF}) {
                int s = PostStatus.error(code, index);
                assertTrue(s < 0);
                assertEquals(code, PostStatus.code(s));
                assertEquals(index, PostStatus.badIndex(s));
                assertEquals(index, PostStatus.postedCount(s, index + 10));
            }
        }
        assertEquals("QUEUE_FULL at index 3", PostStatus.toString(PostStatus.error(PostStatus.QUEUE_FULL, 3)));
        assertThrows(IllegalArgumentException.class, () -> PostStatus.error(0, 0));
        assertThrows(IllegalArgumentException.class, () -> PostStatus.error(1, 0x80_0000));
    }

    /**
     * docs/design.md rule 3: refilling prepared work requests, checking them and filling completions
     * allocates nothing.
     */
    @Test
    void reuseAllocatesNothing() {
        com.sun.management.ThreadMXBean mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        assertTrue(mx.isThreadAllocatedMemorySupported() && mx.isThreadAllocatedMemoryEnabled());
        long calibrate = mx.getCurrentThreadAllocatedBytes();
        byte[] probe = new byte[4096];
        assertTrue(mx.getCurrentThreadAllocatedBytes() - calibrate >= probe.length, "the meter sees allocations");
        SendWr[] wrs = {new SendWr(4), new SendWr(4)};
        RecvWr recv = new RecvWr(2);
        WorkCompletion wc = new WorkCompletion();
        WorkCompletion copy = new WorkCompletion();
        MemorySegment inline = MemorySegment.ofArray(new byte[64]);
        long sink = 0;
        for (int round = 0; round < 2; round++) {          // round 0 warms up, round 1 measures
            long before = mx.getCurrentThreadAllocatedBytes();
            for (int i = 0; i < 100_000; i++) {
                SendWr wr = wrs[i & 1];
                wr.reset().wrId(i).opcode(WrOpcode.RDMA_WRITE).signaled((i & 15) == 0)
                        .addSge(LKEY, i & 1023, 64).addSge(LKEY, 2048, 32).remote(0x10_0000L + i, RKEY);
                sink += wr.check(4, 64, true, true) + wr.totalLength();
                wr.reset().opcode(WrOpcode.SEND).flags(SendFlags.INLINE).addInlineSge(inline, 0, 64);
                sink += wr.check(4, 64, true, true);
                recv.reset().wrId(i).addSge(LKEY, 0, 4096);
                sink += recv.check(2) + recv.totalLength();
                wc.reset().wrId(i).status(WcStatus.SUCCESS).opcode(WcOpcode.RECV_RDMA_WITH_IMM).byteLen(0)
                        .immData(i).qpNum(3);
                sink += copy.copyFrom(wc).immData32();
                sink += PostStatus.code(PostStatus.error(PostStatus.QUEUE_FULL, i & 0xFF));
            }
            long allocated = mx.getCurrentThreadAllocatedBytes() - before;
            if (round == 1) {
                assertTrue(allocated < 1024, "allocated " + allocated + " bytes over 100k reuses");
            }
        }
        assertTrue(sink != 0);
    }
}
