package org.jwarp.wire.fpdu;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.lang.foreign.MemorySegment;
import org.jwarp.wire.Crc32c;
import org.jwarp.wire.Wire;
import org.jwarp.wire.WireVectors;
import org.jwarp.wire.rdmap.RdmapOpcode;
import org.junit.jupiter.api.Test;

/**
 * RFC 5044 §4.4, the two annotated FPDUs (Figures 5 and 6): a Send of 24 zero bytes preceded by a
 * marker (FPDUPTR 0), and the next Send with a marker 20 bytes into it (FPDUPTR 0x14). Both are 48
 * bytes of CRC input followed by the CRC; the CRC values are the RFC's.
 */
class Rfc5044FiguresTest {

    /** Figure 5: marker, then ULPDU_Length 0x2a, untagged Send header (MSN 1), 24 zero bytes, CRC. */
    static final byte[] FPDU_1 = Wire.unhex(WireVectors.RFC5044_FPDU_1);

    /** Figure 6: the next Send (MSN 2); a marker falls 20 bytes into it and points back 0x14. */
    static final byte[] FPDU_2 = Wire.unhex(WireVectors.RFC5044_FPDU_2);

    /** FPDU 2 starts 20 bytes before a marker position: 512 - 20 from where markers are counted. */
    static final long FPDU_2_STREAM_POSITION = WireVectors.RFC5044_FPDU_2_STREAM_POSITION;

    @Test
    void crcValuesAreTheRfcs() {
        MemorySegment f1 = MemorySegment.ofArray(FPDU_1);
        MemorySegment f2 = MemorySegment.ofArray(FPDU_2);
        assertEquals(0x83992352, Crc32c.of(f1, 0, 48));
        assertEquals(0x83992352, Crc32c.getWire(f1, 48));
        assertEquals(0x98589284, Crc32c.of(f2, 0, 48));
        assertEquals(0x98589284, Crc32c.getWire(f2, 48));
    }

    @Test
    void encodesFigure5() {
        FrameStream s = new FrameStream(true, true, 0).send(RdmapOpcode.SEND, 1, 0, new byte[24], 1000);
        assertEquals(Wire.hex(MemorySegment.ofArray(FPDU_1), 0, FPDU_1.length),
                Wire.hex(MemorySegment.ofArray(s.bytes()), 0, s.bytes().length));
    }

    @Test
    void encodesFigure6() {
        FrameStream s = new FrameStream(true, true, FPDU_2_STREAM_POSITION)
                .send(RdmapOpcode.SEND, 2, 0, new byte[24], 1000);
        assertArrayEquals(FPDU_2, s.bytes());
    }

    @Test
    void decodesFigure5And6InAnySplit() {
        for (byte[] fpdu : new byte[][] {FPDU_1, FPDU_2}) {
            long start = fpdu == FPDU_1 ? 0 : FPDU_2_STREAM_POSITION;
            int msn = fpdu == FPDU_1 ? 1 : 2;
            StreamDecoding.Outcome whole = StreamDecoding.decodeWhole(fpdu, true, true, start);
            assertNull(whole.error());
            assertEquals(1, whole.frames().size());
            FrameStream.Frame f = whole.frames().getFirst();
            assertEquals(RdmapOpcode.SEND, f.opcode());
            assertEquals("4143" + "00000000" + "00000000" + String.format("%08x", msn) + "00000000", f.header());
            assertArrayEquals(new byte[24], f.payload());
            for (int w = 1; w <= fpdu.length; w++) {
                int window = w;
                assertEquals(whole, StreamDecoding.decode(fpdu, true, true, start, fed -> window), "window " + w);
            }
        }
    }

    @Test
    void bothFiguresAsOneStream() {
        // Figure 5 then Figure 6 back to back is not one real stream (Figure 6 assumes 492 bytes
        // before it); re-encoding the two Sends from position 0 must agree with the decoder.
        FrameStream s = new FrameStream(true, true, 0)
                .send(RdmapOpcode.SEND, 1, 0, new byte[24], 1000)
                .send(RdmapOpcode.SEND, 2, 0, new byte[24], 1000);
        StreamDecoding.Outcome o = StreamDecoding.decodeByteByByte(s.bytes(), true, true, 0);
        assertNull(o.error());
        assertEquals(s.frames(), o.frames());
    }
}
