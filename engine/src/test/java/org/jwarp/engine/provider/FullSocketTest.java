package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.jwarp.engine.datapath.StreamDriver;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CounterNames;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;

/**
 * A socket that is full — the peer reads nothing — is written only every
 * {@link StreamDriver#FULL_SOCKET_RETRY_EVERY}-th duty cycle, not retried into EAGAIN on each one,
 * and the message still arrives whole once the peer reads again.
 */
class FullSocketTest {

    @Test
    void aFullSocketIsRetriedInTurnAndTheWriteStillArrivesWhole() throws Exception {
        // invoker mode on both ends: the server's engine runs only when this thread calls into it
        try (LoopbackPair pair = new LoopbackPair(LoopbackPair.invoker(), LoopbackPair.invoker(), new byte[0],
                new byte[0])) {
            int size = 64 << 20;    // more than both kernels' socket buffers hold
            MemoryRegion src = pair.client.register(size, Access.LOCAL_WRITE);
            MemoryRegion dst = pair.server.register(size, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            byte[] pattern = new byte[size];
            new Random(13).nextBytes(pattern);
            src.segment().copyFrom(MemorySegment.ofArray(pattern));
            assertEquals(PostStatus.OK, pair.client.qp.postSend(new SendWr().wrId(5).opcode(WrOpcode.RDMA_WRITE)
                    .signaled(true).addSge(src, 0, size).remote(dst.iova(), dst.rkey())));
            // the client alone runs until its socket is full: a write that leaves bytes behind
            long deadline = System.nanoTime() + LoopbackPair.WAIT.toNanos();
            long before;
            do {
                before = writes(pair);
                for (int i = 0; i < 64; i++) {
                    pair.client.device.invoke();
                }
                assertTrue(System.nanoTime() < deadline, "the client's socket never filled");
            } while (writes(pair) - before > 64 / StreamDriver.FULL_SOCKET_RETRY_EVERY + 1);
            int cycles = 800;
            before = writes(pair);
            for (int i = 0; i < cycles; i++) {
                pair.client.device.invoke();
            }
            long tries = writes(pair) - before;
            assertTrue(tries >= 1 && tries <= cycles / StreamDriver.FULL_SOCKET_RETRY_EVERY + 2,
                    "a full socket was written " + tries + " times in " + cycles + " duty cycles");
            // the server reads again: everything arrives, byte for byte
            WorkCompletion done = null;
            while (done == null) {
                assertTrue(System.nanoTime() < deadline + LoopbackPair.WAIT.toNanos(), "the WRITE never completed");
                pair.server.device.invoke();
                pair.client.device.invoke();
                if (pair.client.cq.poll(pair.client.wcs, 1) == 1) {
                    done = pair.client.wcs[0];
                }
            }
            assertEquals(WcStatus.SUCCESS, done.status(), done.toString());
            assertEquals(5, done.wrId());
            long placedBy = System.nanoTime() + LoopbackPair.WAIT.toNanos();
            while (dst.segment().mismatch(src.segment()) != -1 && System.nanoTime() < placedBy) {
                pair.server.device.invoke();
            }
            assertEquals(-1, dst.segment().mismatch(src.segment()), "every byte of the WRITE was placed");
        }
    }

    private static long writes(LoopbackPair pair) {
        return pair.client.qp.counters().get(CounterNames.SOCKET_WRITES);
    }
}
