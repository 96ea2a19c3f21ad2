package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendFlags;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;

/**
 * The small-message send in invoker mode (the posting thread frames and writes a one-FPDU
 * request itself): a post the socket takes whole completes at once; the one that finds the
 * socket full does not complete, its bytes and completion left to the general path, and the
 * posts behind it take the send queue; all complete in posting order once the peer reads again,
 * every byte placed. The
 * engine suite's general-path execution runs the same test with the small-message path off.
 */
class DirectSendTest {

    private static final int SIZE = 1000;
    private static final int SLOTS = 4096;

    @Test
    void aPostThatFindsTheSocketFullCompletesOnceTheSocketTookItAndInPostingOrder() throws Exception {
        try (LoopbackPair pair = new LoopbackPair(LoopbackPair.invoker(), LoopbackPair.invoker(), new byte[0],
                new byte[0])) {
            MemoryRegion src = pair.client.register((long) SIZE * SLOTS, Access.LOCAL_WRITE);
            MemoryRegion dst = pair.server.register((long) SIZE * SLOTS, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            byte[] pattern = new byte[SIZE * SLOTS];
            new Random(31).nextBytes(pattern);
            src.segment().copyFrom(MemorySegment.ofArray(pattern));
            WorkCompletion[] wcs = pair.client.wcs;
            // the server runs nothing: the client's posts go out until its socket is full
            int posted = 0;
            long deadline = System.nanoTime() + LoopbackPair.WAIT.toNanos();
            while (true) {
                post(pair, src, dst, posted++, posted % 3 == 0);
                if (pair.client.cq.poll(wcs, 1) == 0) {
                    break;                                  // this one waits for room in the socket
                }
                assertEquals(posted - 1, wcs[0].wrId(), "completions in posting order");
                assertEquals(WcStatus.SUCCESS, wcs[0].status(), wcs[0].toString());
                assertTrue(System.nanoTime() < deadline, "the client's socket never filled");
            }
            int completed = posted - 1;
            assertTrue(completed > 0, "the first posts went out whole");
            // the posts behind it take the send queue; whatever completes as the socket finds room
            // completes in posting order
            for (int k = 0; k < 16; k++) {
                post(pair, src, dst, posted++, k % 2 == 0);
                pair.client.device.invoke();
                if (pair.client.cq.poll(wcs, 1) == 1) {
                    assertEquals(completed++, wcs[0].wrId(), "completions in posting order");
                }
            }
            // the server reads again: every completion, in posting order, and every byte
            while (completed < posted) {
                assertTrue(System.nanoTime() < deadline + LoopbackPair.WAIT.toNanos(), "posts never completed");
                pair.server.device.invoke();
                pair.client.device.invoke();
                if (pair.client.cq.poll(wcs, 1) == 1) {
                    assertEquals(completed, wcs[0].wrId(), "completions in posting order");
                    assertEquals(WcStatus.SUCCESS, wcs[0].status(), wcs[0].toString());
                    completed++;
                }
            }
            long covered = (long) Math.min(posted, SLOTS) * SIZE;
            long placedBy = System.nanoTime() + LoopbackPair.WAIT.toNanos();
            while (dst.segment().asSlice(0, covered).mismatch(src.segment().asSlice(0, covered)) != -1
                    && System.nanoTime() < placedBy) {
                pair.server.device.invoke();
            }
            assertEquals(-1, dst.segment().asSlice(0, covered).mismatch(src.segment().asSlice(0, covered)),
                    "every WRITE was placed byte for byte");
        }
    }

    @Test
    void anInlineSendLeavesWithTheBytesOfItsPostTime() throws Exception {
        try (LoopbackPair pair = new LoopbackPair(LoopbackPair.invoker(), LoopbackPair.invoker(), new byte[0],
                new byte[0])) {
            MemoryRegion dst = pair.server.register(64, Access.LOCAL_WRITE);
            MemorySegment data = pair.client.arena.allocate(64);
            for (int k = 0; k < 50; k++) {
                assertEquals(PostStatus.OK, pair.server.qp.postRecv(new RecvWr().wrId(k)
                        .addSge(dst, 0, 64)));
                data.fill((byte) k);
                assertEquals(PostStatus.OK, pair.client.qp.postSend(new SendWr().wrId(k).opcode(WrOpcode.SEND)
                        .flags(SendFlags.INLINE | SendFlags.SIGNALED).addInlineSge(data, 0, 64)));
                data.fill((byte) 0xEE);                     // OFED: the buffer is the application's again
                WorkCompletion sent = pair.client.next();
                assertEquals(k, sent.wrId());
                WorkCompletion received = null;
                long deadline = System.nanoTime() + LoopbackPair.WAIT.toNanos();
                while (received == null) {
                    assertTrue(System.nanoTime() < deadline, "the SEND never arrived");
                    pair.server.device.invoke();
                    if (pair.server.cq.poll(pair.server.wcs, 1) == 1) {
                        received = pair.server.wcs[0];
                    }
                }
                assertEquals(WcStatus.SUCCESS, received.status(), received.toString());
                assertEquals(64, received.byteLen());
                for (int i = 0; i < 64; i++) {
                    assertEquals((byte) k, dst.segment().get(ValueLayout.JAVA_BYTE, i));
                }
            }
        }
    }

    private static void post(LoopbackPair pair, MemoryRegion src, MemoryRegion dst, int n, boolean listOfOne) {
        long at = (long) (n % SLOTS) * SIZE;
        SendWr wr = new SendWr().wrId(n).opcode(WrOpcode.RDMA_WRITE).signaled(true).addSge(src, at, SIZE)
                .remote(dst.iova() + at, dst.rkey());
        int rc = listOfOne ? pair.client.qp.postSend(new SendWr[] {wr}, 1) : pair.client.qp.postSend(wr);
        assertEquals(PostStatus.OK, rc, PostStatus.toString(rc));
    }
}
