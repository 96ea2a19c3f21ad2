package org.jwarp.stack;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;
import org.jwarp.wire.fpdu.Seeds;
import org.jwarp.wire.rdmap.DdpError;

/**
 * Two streams whose receives come from one shared queue (OFED's SRQ): each Send takes the oldest
 * receive posted, whichever stream it arrives on; a Send finding the queue empty gets RFC 5041's
 * "no buffer available" Terminate on its own stream only; a flush leaves the shared receives to
 * the other streams.
 */
class SharedReceiveQueueTest {

    /** A shared receive queue: one array of receives, and one view per stream holding what it took. */
    static final class SharedQueue {
        final ArrayWorkQueue<RecvWr> posted = new ArrayWorkQueue<>(16, () -> new RecvWr(8));

        void post(long wrId, int stag, int length) {
            posted.slot().reset().wrId(wrId).addSge(stag, 0, length);
            posted.post();
        }

        WorkQueue<RecvWr> view() {
            return new SharedReceiveView(into -> {
                RecvWr next = posted.peek();
                if (next == null) {
                    return false;
                }
                into.copyFrom(next);
                posted.advance();
                return true;
            }, 8);
        }
    }

    private static void send(StreamPair p, StagTable.Region src, String text, long wrId) {
        byte[] b = text.getBytes(StandardCharsets.US_ASCII);
        MemorySegment.copy(b, 0, src.segment(), ValueLayout.JAVA_BYTE, 0, b.length);
        p.a.postSend(w -> w.wrId(wrId).opcode(WrOpcode.SEND).signaled(true).addSge(src.stag(), 0, b.length));
        p.pump();
    }

    private static String text(StagTable.Region r, int length) {
        return new String(r.segment().asSlice(0, length).toArray(ValueLayout.JAVA_BYTE), StandardCharsets.US_ASCII);
    }

    @Test
    void sendsOnEitherStreamTakeTheOldestSharedReceive() {
        StagTable device = new StagTable(64);
        SharedQueue srq = new SharedQueue();
        try (StreamPair p1 = new StreamPair(StreamPair.defaults(), StreamPair.defaults(), Seeds.random(1), false,
                device, srq.view());
             StreamPair p2 = new StreamPair(StreamPair.defaults(), StreamPair.defaults(), Seeds.random(2), false,
                     device, srq.view())) {
            StagTable.Region[] bufs = new StagTable.Region[3];
            for (int i = 0; i < 3; i++) {
                MemorySegment m = p1.arena.allocate(64);
                bufs[i] = device.register(StreamPair.PD, m, m.address(), Access.LOCAL_WRITE);
                srq.post(10 + i, bufs[i].stag(), 64);
            }
            StagTable.Region src1 = p1.a.register(64, Access.LOCAL_WRITE);
            StagTable.Region src2 = p2.a.register(64, Access.LOCAL_WRITE);
            send(p1, src1, "first on one", 1);
            send(p2, src2, "then on two", 2);
            send(p1, src1, "again on one", 3);

            WorkCompletion c = p1.b.recvCq.take();
            assertEquals(10, c.wrId());
            assertSame(WcOpcode.RECV, c.opcode());
            assertEquals(12, c.byteLen());
            assertEquals(2, c.qpNum(), "the completion names the stream the Send came on");
            assertEquals(11, p2.b.recvCq.take().wrId());
            assertEquals(12, p1.b.recvCq.take().wrId());
            assertEquals("first on one", text(bufs[0], 12));
            assertEquals("then on two", text(bufs[1], 11));
            assertEquals("again on one", text(bufs[2], 12));
            assertEquals(0, srq.posted.size());
        }
    }

    @Test
    void anEmptySharedQueueTerminatesOnlyTheStreamItsSendCameOn() {
        StagTable device = new StagTable(64);
        SharedQueue srq = new SharedQueue();
        try (StreamPair p1 = new StreamPair(StreamPair.defaults(), StreamPair.defaults(), Seeds.random(3), false,
                device, srq.view());
             StreamPair p2 = new StreamPair(StreamPair.defaults(), StreamPair.defaults(), Seeds.random(4), false,
                     device, srq.view())) {
            p2.a.postSend(w -> w.wrId(4).opcode(WrOpcode.SEND).signaled(true));
            p2.pump();
            // RFC 5041 §7.2: untagged "no buffer available", with the DDP header (QN 0, MSN 1, MO 0)
            assertEquals(StreamErrorsTest.control(DdpError.NO_BUFFER_AVAILABLE, true, true, false) + "0000"
                    + "4143" + "00000000" + "00000000" + "00000001" + "00000000", StreamErrorsTest.terminateSentBy(p2.b));
            StreamErrorsTest.assertBothStopped(p2, DdpError.NO_BUFFER_AVAILABLE);

            MemorySegment m = p1.arena.allocate(64);
            StagTable.Region buf = device.register(StreamPair.PD, m, m.address(), Access.LOCAL_WRITE);
            srq.post(20, buf.stag(), 64);
            srq.post(21, buf.stag(), 64);
            p2.b.stream.flush();
            assertEquals(2, srq.posted.size(), "the stopped stream's flush leaves the shared receives alone");
            StagTable.Region src = p1.a.register(64, Access.LOCAL_WRITE);
            send(p1, src, "still fine", 5);
            WorkCompletion c = p1.b.recvCq.take();
            assertEquals(20, c.wrId());
            assertSame(WcStatus.SUCCESS, c.status());
            assertArrayEquals("still fine".getBytes(StandardCharsets.US_ASCII),
                    buf.segment().asSlice(0, 10).toArray(ValueLayout.JAVA_BYTE));
            assertEquals(1, srq.posted.size());
        }
    }
}
