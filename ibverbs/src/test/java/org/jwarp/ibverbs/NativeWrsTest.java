package org.jwarp.ibverbs;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.management.ManagementFactory;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendFlags;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

/**
 * What a post hands libibverbs and what a poll makes of an {@code ibv_wc}, field by field at the
 * header's offsets, and that neither allocates: the data path without a device.
 */
class NativeWrsTest {

    private static final int LKEY = 0xfcc2ef00;
    private static final long BASE = 0x7f0012340000L;

    @Test
    void sendRequestsBecomeLinkedIbvSendWrs() {
        LkeyTable lkeys = new LkeyTable();
        lkeys.put(LKEY, BASE);
        try (Arena arena = Arena.ofConfined()) {
            NativeWrs chain = new NativeWrs(arena, true, 4, 2, lkeys);
            SendWr write = new SendWr(2).wrId(7).opcode(WrOpcode.RDMA_WRITE).signaled(true)
                    .addSge(LKEY, 100, 23).addSge(LKEY, 4096, 1).remote(0xABCDEF0123L, 0x11223344);
            SendWr imm = new SendWr(2).wrId(8).opcode(WrOpcode.SEND_WITH_IMM).immData(0x01020304L);
            assertEquals(PostStatus.OK, chain.writeSend(0, write, false, 0, false));
            assertEquals(PostStatus.OK, chain.writeSend(1, imm, true, 0, false));
            MemorySegment w = chain.first();
            long size = QpStructs.SEND_WR.byteSize();
            assertEquals(7L, w.get(JAVA_LONG, QpStructs.SWR_WR_ID));
            assertEquals(w.address() + size, w.get(JAVA_LONG, QpStructs.SWR_NEXT), "linked to the next slot");
            assertEquals(2, w.get(JAVA_INT, QpStructs.SWR_NUM_SGE));
            assertEquals(0, w.get(JAVA_INT, QpStructs.SWR_OPCODE), "IBV_WR_RDMA_WRITE");
            assertEquals(SendFlags.SIGNALED, w.get(JAVA_INT, QpStructs.SWR_SEND_FLAGS), "IBV_SEND_SIGNALED");
            assertEquals(0xABCDEF0123L, w.get(JAVA_LONG, QpStructs.SWR_REMOTE_ADDR));
            assertEquals(0x11223344, w.get(JAVA_INT, QpStructs.SWR_RKEY));
            MemorySegment sges = MemorySegment.ofAddress(w.get(JAVA_LONG, QpStructs.SWR_SG_LIST))
                    .reinterpret(2 * QpStructs.SGE.byteSize());
            assertEquals(BASE + 100, sges.get(JAVA_LONG, QpStructs.SGE_ADDR), "lkey + offset became an address");
            assertEquals(23, sges.get(JAVA_INT, QpStructs.SGE_LENGTH));
            assertEquals(LKEY, sges.get(JAVA_INT, QpStructs.SGE_LKEY));
            assertEquals(BASE + 4096, sges.get(JAVA_LONG, QpStructs.SGE.byteSize() + QpStructs.SGE_ADDR));
            assertEquals(0L, w.get(JAVA_LONG, size + QpStructs.SWR_NEXT), "the last request ends the chain");
            assertEquals(3, w.get(JAVA_INT, size + QpStructs.SWR_OPCODE), "IBV_WR_SEND_WITH_IMM");
            // imm_data is __be32: the bytes in memory are 01 02 03 04
            assertEquals(0x04030201, w.get(JAVA_INT, size + QpStructs.SWR_IMM_DATA));
        }
    }

    @Test
    void refusalsAreCodesNamingTheRequest() {
        LkeyTable lkeys = new LkeyTable();
        try (Arena arena = Arena.ofConfined()) {
            NativeWrs chain = new NativeWrs(arena, true, 2, 1, lkeys);
            SendWr unknownKey = new SendWr(1).opcode(WrOpcode.SEND).addSge(0x1234, 0, 8);
            assertEquals(PostStatus.INVALID_WR, chain.writeSend(0, unknownKey, true, 0, false));
            SendWr atomic = new SendWr(1).opcode(WrOpcode.ATOMIC_FETCH_AND_ADD).addSge(0x1234, 0, 8).fetchAdd(1);
            assertEquals(PostStatus.UNSUPPORTED_OPCODE, chain.writeSend(0, atomic, true, 0, false), "no atomics on the device");
            SendWr lone = new SendWr(1).opcode(WrOpcode.IMMEDIATE_DATA).immData(1);
            assertEquals(PostStatus.UNSUPPORTED_OPCODE, chain.writeSend(0, lone, true, 0, false), "no libibverbs opcode");
        }
    }

    @Test
    void completionsAreReadAtTheHeadersOffsets() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment wcs = arena.allocate(QpStructs.WC, 2);
            long second = QpStructs.WC.byteSize();
            wcs.set(JAVA_LONG, second + QpStructs.WC_WR_ID, 42L);
            wcs.set(JAVA_INT, second + QpStructs.WC_STATUS, 0);
            wcs.set(JAVA_INT, second + QpStructs.WC_OPCODE, 1 << 7);                     // IBV_WC_RECV
            wcs.set(JAVA_INT, second + QpStructs.WC_BYTE_LEN, 0xFFFFFFF0);
            wcs.set(JAVA_INT, second + QpStructs.WC_IMM_DATA, 0x04030201);               // __be32 01020304
            wcs.set(JAVA_INT, second + QpStructs.WC_QP_NUM, 9);
            wcs.set(JAVA_INT, second + QpStructs.WC_FLAGS, 1 << 1);                      // IBV_WC_WITH_IMM
            WorkCompletion wc = new WorkCompletion();
            IbvCq.copy(wcs, second, wc);
            assertEquals(42L, wc.wrId());
            assertEquals(WcStatus.SUCCESS, wc.status());
            assertEquals(WcOpcode.RECV, wc.opcode());
            assertEquals(0xFFFFFFF0L, wc.byteLen(), "byte_len is unsigned");
            assertEquals(0x01020304L, wc.immData());
            assertEquals(9, wc.qpNum());
            wcs.set(JAVA_INT, QpStructs.WC_STATUS, WcStatus.WR_FLUSH_ERR.ibvValue());
            wcs.set(JAVA_INT, QpStructs.WC_OPCODE, 0x55);                               // undefined on error
            IbvCq.copy(wcs, 0, wc);
            assertEquals(WcStatus.WR_FLUSH_ERR, wc.status());
            assertEquals(WcOpcode.SEND, wc.opcode());
        }
    }

    @Test
    void writingRequestsAndReadingCompletionsAllocatesNothing() {
        LkeyTable lkeys = new LkeyTable();
        lkeys.put(LKEY, BASE);
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (Arena arena = Arena.ofConfined()) {
            NativeWrs sends = new NativeWrs(arena, true, 16, 2, lkeys);
            NativeWrs recvs = new NativeWrs(arena, false, 16, 2, lkeys);
            MemorySegment wcs = arena.allocate(QpStructs.WC, IbvCq.BATCH);
            SendWr send = new SendWr(2).opcode(WrOpcode.RDMA_WRITE).addSge(LKEY, 0, 64).remote(BASE, LKEY);
            RecvWr recv = new RecvWr(2).addSge(LKEY, 0, 64);
            WorkCompletion wc = new WorkCompletion();
            long sum = 0;
            for (int round = 0; round < 3; round++) {
                long before = threads.getCurrentThreadAllocatedBytes();
                for (int i = 0; i < 200_000; i++) {
                    send.wrId(i);
                    recv.wrId(i);
                    sum += sends.writeSend(i & 15, send, (i & 15) == 15, 0, false);
                    sum += recvs.writeRecv(i & 15, recv, (i & 15) == 15);
                    IbvCq.copy(wcs, (i & 31) * QpStructs.WC.byteSize(), wc);
                    sum += wc.qpNum();
                }
                long allocated = threads.getCurrentThreadAllocatedBytes() - before;
                if (round == 2) {
                    assertTrue(allocated < 4096, "200000 posts and polls allocated " + allocated + " bytes");
                }
            }
            assertEquals(0, sum);
        }
    }
}
