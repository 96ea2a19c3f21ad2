package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.ValueLayout;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CounterNames;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;
import org.junit.jupiter.api.Test;

/**
 * A post list is one doorbell: its requests leave in one system call on the socket (issue 13's
 * batching), and every one of them arrives.
 */
class PostBatchingTest {

    static final int LIST = 16;
    static final int SIZE = 64;

    @Test
    void aPostListLeavesInOneSystemCall() throws Exception {
        try (LoopbackPair p = new LoopbackPair(LoopbackPair.invoker(), LoopbackPair.dedicated(), new byte[0],
                new byte[0])) {
            MemoryRegion local = p.client.register(LIST * SIZE, Access.LOCAL_WRITE);
            MemoryRegion remote = p.server.register(LIST * SIZE, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            for (int i = 0; i < LIST * SIZE; i++) {
                local.segment().set(ValueLayout.JAVA_BYTE, i, (byte) (i * 7 + 1));
            }
            SendWr[] wrs = new SendWr[LIST];
            for (int i = 0; i < LIST; i++) {
                wrs[i] = new SendWr().wrId(i).opcode(WrOpcode.RDMA_WRITE).signaled(i == LIST - 1)
                        .addSge(local, (long) i * SIZE, SIZE).remote(remote.iova() + (long) i * SIZE, remote.rkey());
            }
            long writes = p.client.qp.counters().get(CounterNames.SOCKET_WRITES);
            long fpdus = p.client.qp.counters().get(CounterNames.FPDUS_TX);
            assertEquals(PostStatus.OK, p.client.qp.postSend(wrs, LIST));
            WorkCompletion wc = p.client.next();
            assertEquals(WcStatus.SUCCESS, wc.status(), wc.toString());
            assertEquals(LIST - 1, wc.wrId());
            assertEquals(LIST, p.client.qp.counters().get(CounterNames.FPDUS_TX) - fpdus);
            assertEquals(1, p.client.qp.counters().get(CounterNames.SOCKET_WRITES) - writes,
                    "the list's " + LIST + " WRITEs went out in one sendmsg/write");
            // the completion says the socket took them; the peer placed them all, byte for byte
            long deadline = System.nanoTime() + LoopbackPair.WAIT.toNanos();
            while (local.segment().mismatch(remote.segment()) >= 0 && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertEquals(-1, local.segment().mismatch(remote.segment()), "every byte placed");
        }
    }
}
