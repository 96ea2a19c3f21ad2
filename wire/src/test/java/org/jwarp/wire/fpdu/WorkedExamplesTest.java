package org.jwarp.wire.fpdu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import org.jwarp.wire.Wire;
import org.jwarp.wire.WireVectors;
import org.jwarp.wire.ddp.DdpHeader;
import org.jwarp.wire.rdmap.MpaError;
import org.jwarp.wire.rdmap.RdmapError;
import org.jwarp.wire.rdmap.RdmapOpcode;
import org.jwarp.wire.rdmap.ReadRequestHeader;
import org.jwarp.wire.rdmap.TerminateHeader;
import org.junit.jupiter.api.Test;

/** The byte-exact worked examples of the shared wire reference, §7.1–7.5 (CRC on, no markers). */
class WorkedExamplesTest {

    static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    static String hex(byte[] b) {
        return Wire.hex(MemorySegment.ofArray(b), 0, b.length);
    }

    static FrameStream crcStream() {
        return new FrameStream(true, false, 0);
    }

    static FrameStream.Frame decodeOne(byte[] wire) {
        StreamDecoding.Outcome o = StreamDecoding.decodeWhole(wire, true, false, 0);
        assertNull(o.error(), "decode error");
        assertEquals(1, o.frames().size());
        assertTrue(o.atBoundary());
        assertEquals(o, StreamDecoding.decodeByteByByte(wire, true, false, 0));
        return o.frames().getFirst();
    }

    @Test
    void rdmaWriteOf8Bytes() {
        String wire = WireVectors.RDMA_WRITE_8;
        FrameStream s = crcStream().write(RdmapOpcode.RDMA_WRITE, 0x1234, 0x10, ascii("ABCDEFGH"), 1442);
        assertEquals(wire, hex(s.bytes()));
        FrameStream.Frame f = decodeOne(Wire.unhex(wire));
        assertEquals(s.frames().getFirst(), f);
        DdpHeader h = new DdpHeader().wrap(MemorySegment.ofArray(Wire.unhex(wire)), 2);
        assertTrue(h.tagged() && h.last());
        assertEquals(1, h.ddpVersion());
        assertEquals(0x1234, h.stag());
        assertEquals(0x10, h.to());
    }

    @Test
    void sendOf4Bytes() {
        String wire = WireVectors.SEND_4;
        FrameStream s = crcStream().send(RdmapOpcode.SEND, 1, 0, ascii("ABCD"), 1442);
        assertEquals(wire, hex(s.bytes()));
        assertEquals(s.frames().getFirst(), decodeOne(Wire.unhex(wire)));
    }

    @Test
    void sendWithoutCrcEndsInZeros() {
        FrameStream s = new FrameStream(false, false, 0).send(RdmapOpcode.SEND, 1, 0, ascii("ABCD"), 1442);
        assertEquals("00 16 41 43 00 00 00 00 00 00 00 00 00 00 00 01 00 00 00 00 41 42 43 44 00 00 00 00",
                hex(s.bytes()));
        // and a receiver without CRC must not check the field at all
        byte[] garbageCrc = s.bytes();
        garbageCrc[27] = 0x5a;
        assertNull(StreamDecoding.decodeWhole(garbageCrc, false, false, 0).error());
    }

    @Test
    void paddedSendOf5Bytes() {
        String wire = "00 17 41 43 00 00 00 00 00 00 00 00 00 00 00 02 00 00 00 00 48 65 6c 6c 6f 00 00 00 8f bd c7 50";
        FrameStream s = crcStream().send(RdmapOpcode.SEND, 2, 0, ascii("Hello"), 1442);
        assertEquals(wire, hex(s.bytes()));
        assertEquals(s.frames().getFirst(), decodeOne(Wire.unhex(wire)));
    }

    @Test
    void readRequestAndItsResponse() {
        String request = WireVectors.READ_REQUEST_8;
        FrameStream s = crcStream().readRequest(1, 0x5678, 0x2000, 8, 0x1234, 0x10);
        assertEquals(request, hex(s.bytes()));
        assertEquals(s.frames().getFirst(), decodeOne(Wire.unhex(request)));

        FpduDecoder d = new FpduDecoder().start(true, false, false, 0);
        byte[] r = Wire.unhex(request);
        d.feed(MemorySegment.ofArray(r), 0, r.length);
        assertEquals(FpduDecoder.HEADER, d.next());
        assertSame(RdmapOpcode.RDMA_READ_REQUEST, d.opcode());
        assertEquals(1, d.ddpHeader().qn());
        assertEquals(1, d.ddpHeader().msn());
        assertEquals(0, d.payloadLength());
        ReadRequestHeader rr = new ReadRequestHeader().wrap(d.rdmapHeaderSegment(), d.rdmapHeaderOffset());
        assertEquals(0x5678, rr.sinkStag());
        assertEquals(0x2000, rr.sinkTo());
        assertEquals(8, rr.readSize());
        assertEquals(0x1234, rr.sourceStag());
        assertEquals(0x10, rr.sourceTo());
        assertEquals(FpduDecoder.END, d.next());
        assertEquals(FpduDecoder.NEED_MORE, d.next());

        String response = "00 16 c1 42 00 00 56 78 00 00 00 00 00 00 20 00 41 42 43 44 45 46 47 48 df c2 0b 10";
        FrameStream rs = crcStream().write(RdmapOpcode.RDMA_READ_RESPONSE, 0x5678, 0x2000, ascii("ABCDEFGH"), 1442);
        assertEquals(response, hex(rs.bytes()));
        assertEquals(rs.frames().getFirst(), decodeOne(Wire.unhex(response)));
    }

    @Test
    void zeroLengthWriteRtrAsSiwSendsIt() {
        String wire = "00 0e c1 40 00 00 00 01 00 00 00 00 00 00 00 00 eb d3 4c 5f";
        FrameStream s = crcStream().write(RdmapOpcode.RDMA_WRITE, 1, 0, new byte[0], 1442);
        assertEquals(wire, hex(s.bytes()));
        FrameStream.Frame f = decodeOne(Wire.unhex(wire));
        assertEquals(0, f.payload().length);
    }

    @Test
    void terminateUnexpectedOpcode() {
        String wire = "00 16 41 47 00 00 00 00 00 00 00 02 00 00 00 01 00 00 00 00 02 06 00 00 6f 77 b9 73";
        FrameStream s = crcStream().terminate(RdmapError.UNEXPECTED_OPCODE, -1, new byte[0], null);
        assertEquals(wire, hex(s.bytes()));
        FrameStream.Frame f = decodeOne(Wire.unhex(wire));
        assertSame(RdmapOpcode.TERMINATE, f.opcode());
        TerminateHeader t = new TerminateHeader().wrap(MemorySegment.ofArray(Wire.unhex(wire)), 20, 4);
        assertSame(RdmapError.UNEXPECTED_OPCODE, t.error());
        assertEquals(false, t.hasDdpHeader());
    }

    @Test
    void terminateCrcError() {
        String wire = "00 16 41 47 00 00 00 00 00 00 00 02 00 00 00 01 00 00 00 00 20 02 00 00 7f e4 25 85";
        FrameStream s = crcStream().terminate(MpaError.CRC_ERROR, -1, new byte[0], null);
        assertEquals(wire, hex(s.bytes()));
        TerminateHeader t = new TerminateHeader().wrap(MemorySegment.ofArray(Wire.unhex(wire)), 20, 4);
        assertSame(MpaError.CRC_ERROR, t.error());
        assertEquals(s.frames().getFirst(), decodeOne(Wire.unhex(wire)));
    }
}
