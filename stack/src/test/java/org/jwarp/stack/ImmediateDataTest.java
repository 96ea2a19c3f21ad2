package org.jwarp.stack;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.ValueLayout;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.jwarp.stack.StagTable.Region;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.SendFlags;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;
import org.jwarp.wire.fpdu.FrameStream;
import org.jwarp.wire.fpdu.Seeds;
import org.jwarp.wire.fpdu.StreamDecoding;
import org.jwarp.wire.rdmap.RdmapOpcode;

/**
 * RFC 7306's Immediate Data operation on its own (opcodes 0x8 and 0x9) and OFED's Send with
 * Immediate mapped onto a Send followed by it: the FPDUs on the wire, byte for byte, and the
 * receives each consumes.
 */
class ImmediateDataTest {

    /** DDP untagged header, L=1, of RDMAP opcode {@code op} on QN 0 with MSN {@code msn}, MO 0. */
    private static String untagged(int op, int msn) {
        return String.format("41%02x", 0x40 | op) + "00000000" + "00000000" + String.format("%08x", msn) + "00000000";
    }

    private static List<FrameStream.Frame> framesSentBy(StreamPair.Side side) {
        StreamDecoding.Outcome o = StreamDecoding.decodeWhole(side.sentBytes(), true, false, 0);
        assertNull(o.error());
        return o.frames();
    }

    @Test
    void immediateDataAloneIsOneHeaderOnlyMessageConsumingOneReceive() {
        try (StreamPair p = new StreamPair(StreamPair.defaults(), StreamPair.defaults(), Seeds.random(1))) {
            p.b.postRecv(r -> r.wrId(7));
            p.b.postRecv(r -> r.wrId(8));
            p.a.postSend(w -> w.wrId(1).opcode(WrOpcode.IMMEDIATE_DATA).signaled(true).immData(0x0123456789ABCDEFL));
            p.a.postSend(w -> w.wrId(2).opcode(WrOpcode.IMMEDIATE_DATA).signaled(true)
                    .flags(SendFlags.SIGNALED | SendFlags.SOLICITED).immData(-2L));
            p.pump();
            List<FrameStream.Frame> f = framesSentBy(p.a);
            assertEquals(2, f.size());
            assertSame(RdmapOpcode.IMMEDIATE_DATA, f.get(0).opcode());
            assertEquals(untagged(0x8, 1) + "0123456789abcdef", f.get(0).header());
            assertEquals(0, f.get(0).payload().length);
            assertSame(RdmapOpcode.IMMEDIATE_DATA_WITH_SE, f.get(1).opcode());
            assertEquals(untagged(0x9, 2) + "fffffffffffffffe", f.get(1).header());

            WorkCompletion s = p.a.sendCq.take();
            assertSame(WcStatus.SUCCESS, s.status());
            assertSame(WcOpcode.SEND, s.opcode());
            WorkCompletion r = p.b.recvCq.take();
            assertEquals(7, r.wrId());
            assertTrue(r.hasImm());
            assertEquals(0x0123456789ABCDEFL, r.immData());
            assertEquals(0, r.byteLen());
            assertEquals(-2L, p.b.recvCq.take().immData());
        }
    }

    @Test
    void sendWithImmediateIsASendThenImmediateDataConsumingTwoReceives() {
        try (StreamPair p = new StreamPair(StreamPair.defaults(), StreamPair.defaults(), Seeds.random(2))) {
            Region src = p.a.register(100, Access.LOCAL_WRITE);
            Region dst = p.b.register(100, Access.LOCAL_WRITE);
            byte[] data = "send with immediate".getBytes();
            src.segment().asSlice(0, data.length).copyFrom(java.lang.foreign.MemorySegment.ofArray(data));
            p.b.postRecv(r -> r.wrId(10).addSge(dst.stag(), 0, 100));
            p.b.postRecv(r -> r.wrId(11));
            p.a.postSend(w -> w.wrId(3).opcode(WrOpcode.SEND_WITH_IMM).flags(SendFlags.SIGNALED | SendFlags.SOLICITED)
                    .addSge(src.stag(), 0, data.length).immData(42));
            p.pump();
            List<FrameStream.Frame> f = framesSentBy(p.a);
            assertEquals(2, f.size());
            assertSame(RdmapOpcode.SEND, f.get(0).opcode(), "the Send itself is not solicited");
            assertEquals(untagged(0x3, 1), f.get(0).header());
            assertArrayEquals(data, f.get(0).payload());
            assertSame(RdmapOpcode.IMMEDIATE_DATA_WITH_SE, f.get(1).opcode(), "the SE goes on the last message");
            assertEquals(untagged(0x9, 2) + "000000000000002a", f.get(1).header());

            assertEquals(1, p.a.sendCq.size(), "one completion for the request");
            assertSame(WcOpcode.SEND, p.a.sendCq.take().opcode());
            WorkCompletion data1 = p.b.recvCq.take();
            assertEquals(10, data1.wrId());
            assertSame(WcOpcode.RECV, data1.opcode());
            assertFalse(data1.hasImm());
            assertEquals(data.length, data1.byteLen());
            assertArrayEquals(data, dst.segment().asSlice(0, data.length).toArray(ValueLayout.JAVA_BYTE));
            WorkCompletion imm = p.b.recvCq.take();
            assertEquals(11, imm.wrId());
            assertTrue(imm.hasImm());
            assertEquals(42, imm.immData());
        }
    }

    @Test
    void withoutRfc7306OnTheConnectionTheyAreRefusedLocallyAndNothingIsSent() {
        StreamParameters no7306 = new StreamParameters(true, false, false, 1442, 8, 8, false);
        try (StreamPair p = new StreamPair(no7306, no7306, Seeds.random(3))) {
            p.b.postRecv(r -> r.wrId(1));
            p.a.postSend(w -> w.wrId(5).opcode(WrOpcode.SEND_WITH_IMM).signaled(true).immData(1));
            p.pump();
            assertSame(WcStatus.LOC_QP_OP_ERR, p.a.sendCq.take().status());
            assertTrue(framesSentBy(p.a).stream().noneMatch(x -> x.opcode() == RdmapOpcode.SEND
                    || x.opcode() == RdmapOpcode.IMMEDIATE_DATA), "no Send and no Immediate Data on the wire");
        }
    }
}
