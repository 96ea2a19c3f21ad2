package org.jwarp.stack;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.jwarp.stack.StagTable.Region;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WrOpcode;
import org.jwarp.wire.Wire;
import org.jwarp.wire.fpdu.Seeds;
import org.junit.jupiter.api.Test;

/**
 * The nudge: a zero-length RDMA Write the engine sends once when a peer stays silent after our
 * first FPDUs (Linux siw 6.1 can leave them unread; see {@link RdmapStream#queueNudge()}).
 */
class StreamNudgeTest {

    /** Reference §7.5: the zero-length Write siw sends as its RTR (STag 1, TO 0), CRC on. */
    private static final String ZERO_LENGTH_WRITE = "000ec14000000001000000000000000 0ebd34c5f".replace(" ", "");

    private static String hex(byte[] b, int from, int to) {
        return Wire.hex(MemorySegment.ofArray(Arrays.copyOfRange(b, from, to)), 0, to - from).replace(" ", "");
    }

    @Test
    void aNudgeIsAZeroLengthWriteThePeerTakesWithoutEffect() {
        try (StreamPair p = new StreamPair(StreamPair.defaults(), StreamPair.defaults(), Seeds.random(11))) {
            Region src = p.a.register(4, Access.LOCAL_WRITE);
            src.segment().copyFrom(MemorySegment.ofArray("ABCD".getBytes()));
            p.b.postRecv(r -> r.wrId(7).addSge(p.b.register(64, Access.LOCAL_WRITE).stag(), 0, 64));
            p.a.postSend(w -> w.wrId(1).opcode(WrOpcode.SEND).signaled(true).addSge(src.stag(), 0, 4));
            p.pump();
            int before = p.a.sentBytes().length;
            long fpdus = p.a.stream.fpdusSent();

            p.a.stream.queueNudge();
            p.pump();

            byte[] sent = p.a.sentBytes();
            assertEquals(ZERO_LENGTH_WRITE, hex(sent, before, sent.length));
            assertEquals(fpdus + 1, p.a.stream.fpdusSent());
            assertSame(RdmapStream.State.RTS, p.b.stream.state());
            assertEquals(7, p.b.recvCq.take().wrId());
            assertEquals(0, p.b.recvCq.size(), "the zero-length Write completes nothing at the peer");
            assertSame(WcStatus.SUCCESS, p.a.sendCq.take().status());
        }
    }

    @Test
    void aNudgeWaitsForTheMessageBoundary() {
        try (StreamPair p = new StreamPair(StreamPair.defaults(), StreamPair.defaults(), Seeds.random(12))) {
            Region dst = p.b.register(4000, Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            Region src = p.a.register(4000, Access.LOCAL_WRITE);
            p.a.postSend(w -> w.wrId(1).opcode(WrOpcode.RDMA_WRITE).signaled(true).addSge(src.stag(), 0, 4000)
                    .remote(dst.iova(), dst.stag()));
            // room for one segment only: the Write is under way when the nudge is queued
            BufferFpduSink small = new BufferFpduSink(p.arena.allocate(1500)).start(true, false, 0);
            assertEquals(1, p.a.stream.transmit(small));
            byte[] first = small.buffer().asSlice(small.start(), small.pending()).toArray(ValueLayout.JAVA_BYTE);
            p.a.sink.start(true, false, small.pending());
            p.a.stream.queueNudge();
            p.a.stream.transmit(p.a.sink);
            byte[] rest = p.a.sink.buffer().asSlice(p.a.sink.start(), p.a.sink.pending()).toArray(ValueLayout.JAVA_BYTE);

            List<String> kinds = new ArrayList<>();
            for (byte[] chunk : new byte[][] {first, rest}) {
                for (int at = 0; at < chunk.length; ) {
                    int ulpdu = ((chunk[at] & 0xFF) << 8) | (chunk[at + 1] & 0xFF);
                    kinds.add(String.format("%02x%02x/%d", chunk[at + 2], chunk[at + 3], ulpdu - 14));
                    at += (2 + ulpdu + 3 & ~3) + 4;
                }
            }
            // three Write segments (L only on the last), then the zero-length Write
            assertEquals(List.of("8140/1428", "8140/1428", "c140/1144", "c140/0"), kinds);
        }
    }
}
