package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.MemoryWindow;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.QpState;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;

/**
 * Memory windows through the verbs over TCP: bind on the server's QP, the client READs and WRITEs
 * through the window's rkey, the window is invalidated locally, and the next WRITE through it
 * ends the connection with a Terminate.
 */
class MemoryWindowOverTcpTest {

    @Test
    void bindUseInvalidateOverTcp() throws Exception {
        try (LoopbackPair pair = new LoopbackPair(LoopbackPair.dedicated(), LoopbackPair.dedicated(), new byte[0],
                new byte[0])) {
            MemoryRegion mr = pair.server.register(8192, Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ);
            for (int i = 0; i < 8192; i++) {
                mr.segment().set(ValueLayout.JAVA_BYTE, i, (byte) i);
            }
            MemoryWindow mw = pair.server.pd.allocMw();
            assertFalse(mw.isBound());
            int rkey = mw.nextRkey();
            assertEquals(PostStatus.OK, pair.server.qp.postSend(new SendWr().wrId(1).opcode(WrOpcode.BIND_MW)
                    .signaled(true).bindMw(mw.rkey(), rkey, mr, 4096, 1024, Access.REMOTE_READ | Access.REMOTE_WRITE)));
            WorkCompletion bound = pair.server.next();
            assertSame(WcStatus.SUCCESS, bound.status(), bound.toString());
            assertSame(WcOpcode.BIND_MW, bound.opcode());
            assertTrue(mw.isBound());
            assertEquals(rkey, mw.rkey());

            MemoryRegion sink = pair.client.register(1024, Access.LOCAL_WRITE);
            pair.client.qp.postSend(new SendWr().wrId(2).opcode(WrOpcode.RDMA_READ).signaled(true)
                    .addSge(sink, 0, 1024).remote(mr.iova() + 4096, rkey));
            assertSame(WcStatus.SUCCESS, pair.client.next().status());
            for (int i = 0; i < 1024; i++) {
                assertEquals((byte) (4096 + i), sink.segment().get(ValueLayout.JAVA_BYTE, i), "byte " + i);
            }
            sink.segment().fill((byte) 0x77);
            pair.client.qp.postSend(new SendWr().wrId(3).opcode(WrOpcode.RDMA_WRITE).signaled(true)
                    .addSge(sink, 0, 100).remote(mr.iova() + 4096 + 900, rkey));
            assertSame(WcStatus.SUCCESS, pair.client.next().status());
            // iWARP completes a WRITE once TCP took it (RFC 5040 §5.5); the server places it a moment later
            long placedBy = System.nanoTime() + DevicePair.WAIT.toNanos();
            while (mr.segment().get(ValueLayout.JAVA_BYTE, 4096 + 999) != 0x77) {
                assertTrue(System.nanoTime() < placedBy, "the WRITE through the window was not placed");
                Thread.onSpinWait();
            }
            assertEquals(0x77, mr.segment().get(ValueLayout.JAVA_BYTE, 4096 + 900));
            assertEquals((byte) 5096, mr.segment().get(ValueLayout.JAVA_BYTE, 5096), "not past the window");

            assertEquals(PostStatus.OK, pair.server.qp.postSend(new SendWr().wrId(4).opcode(WrOpcode.LOCAL_INV)
                    .signaled(true).invalidateRkey(rkey)));
            assertSame(WcOpcode.LOCAL_INV, pair.server.next().opcode());
            assertFalse(mw.isBound());
            pair.client.qp.postSend(new SendWr().wrId(5).opcode(WrOpcode.RDMA_WRITE).signaled(true)
                    .addSge(sink, 0, 8).remote(mr.iova() + 4096, rkey));
            long deadline = System.nanoTime() + DevicePair.WAIT.toNanos();
            while (pair.client.qp.state() != QpState.ERROR) {
                assertTrue(System.nanoTime() < deadline, "the client's QP did not end: " + pair.client.qp.state());
                Thread.onSpinWait();
            }
            assertNotEquals(0x77, mr.segment().get(ValueLayout.JAVA_BYTE, 4096), "nothing placed after the invalidation");
            assertEquals(PostStatus.INVALID_WR, PostStatus.code(pair.server.qp.postSend(new SendWr().wrId(6)
                    .opcode(WrOpcode.LOCAL_INV).addSge(mr, 0, 8))), "a local operation takes no SGE");
            mw.close();
            assertThrows(UnsupportedOperationException.class, () -> new org.jwarp.verbs.ProtectionDomain() {
                public org.jwarp.verbs.RdmaDevice device() { return null; }
                public int handle() { return 0; }
                public MemoryRegion registerMemory(java.lang.foreign.MemorySegment s, int a) { return null; }
                public void close() { }
            }.allocMw(), "a provider without windows says so");
        }
    }
}
