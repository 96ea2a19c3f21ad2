package org.jwarp.wire.fpdu;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.jwarp.wire.ddp.DdpSegmenter;
import org.jwarp.wire.rdmap.RdmapOpcode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class MulpduAndSegmenterTest {

    /** RFC 5044 §4.5 formulas; rows from the wire reference §2.11. */
    @ParameterizedTest
    @CsvSource({"1460, 1454, 1442", "1448, 1442, 1430", "8948, 8942, 8870"})
    void mulpduFromEmss(int emss, int withoutMarkers, int withMarkers) {
        assertEquals(withoutMarkers, Mulpdu.of(emss, false));
        assertEquals(withMarkers, Mulpdu.of(emss, true));
    }

    @Test
    void mulpduHasAFloorOf128AndACeilingOfTheLengthField() {
        assertEquals(Mulpdu.MINIMUM, Mulpdu.of(100, false));
        assertEquals(Mulpdu.MINIMUM, Mulpdu.of(130, true));
        assertEquals(Fpdu.MAX_ULPDU_LENGTH, Mulpdu.of(1 << 20, false));
        assertThrows(IllegalArgumentException.class, () -> Mulpdu.of(0, false));
    }

    @Test
    void rfc5041UntaggedExample() {
        // RFC 5041 §5.2: MULPDU 1500, a 2048-byte untagged message: MO 0 (1482 bytes), MO 1482 (566).
        DdpSegmenter s = new DdpSegmenter().untagged(RdmapOpcode.SEND, 1, 0, 2048, 1500);
        assertTrue(s.next());
        assertEquals(0, s.messageOffset());
        assertEquals(1482, s.payloadLength());
        assertFalse(s.last());
        assertTrue(s.next());
        assertEquals(1482, s.messageOffset());
        assertEquals(566, s.payloadLength());
        assertTrue(s.last());
        assertFalse(s.next());
    }

    @Test
    void rfc5041TaggedExample() {
        // RFC 5041 §5.2: initial TO 16384, MULPDU 1500, 2048 bytes: TO 16384 (1486), TO 17870 (562).
        FrameStream f = new FrameStream(true, false, 0).write(RdmapOpcode.RDMA_WRITE, 0x42, 16384, new byte[2048], 1500);
        assertEquals(2, f.frames().size());
        assertEquals("8140" + "00000042" + String.format("%016x", 16384), f.frames().get(0).header());
        assertEquals(1486, f.frames().get(0).payload().length);
        assertEquals("c140" + "00000042" + String.format("%016x", 17870), f.frames().get(1).header());
        assertEquals(562, f.frames().get(1).payload().length);
    }

    @Test
    void zeroLengthMessageIsOneSegmentWithL() {
        DdpSegmenter s = new DdpSegmenter().tagged(RdmapOpcode.RDMA_WRITE, 1, 0, 0, 1442);
        assertTrue(s.next());
        assertEquals(0, s.payloadLength());
        assertTrue(s.last());
        assertFalse(s.next());
    }

    @Test
    void setupMistakesAreRejected() {
        DdpSegmenter s = new DdpSegmenter();
        assertThrows(IllegalArgumentException.class, () -> s.tagged(RdmapOpcode.SEND, 1, 0, 10, 1442));
        assertThrows(IllegalArgumentException.class, () -> s.untagged(RdmapOpcode.RDMA_READ_REQUEST, 1, 0, 10, 1442));
        assertThrows(IllegalArgumentException.class, () -> s.untagged(RdmapOpcode.SEND, 1, 0, 1L << 32, 1442));
        assertThrows(IllegalArgumentException.class, () -> s.untagged(RdmapOpcode.SEND, 1, 0, 10, 18));
    }

    @Test
    void fpduLengthsWithPadAndMarkers() {
        assertEquals(28, Fpdu.length(22));
        assertEquals(32, Fpdu.length(23));
        // reference §2.10: an FPDU of 40 bytes starting at stream offset 500 gets one marker at 512.
        assertEquals(44, Fpdu.lengthWithMarkers(40 - 6, 500));
        // a marker exactly at the FPDU's start belongs to it
        assertEquals(32, Fpdu.lengthWithMarkers(22, 512));
        // ending exactly at a marker position: that marker belongs to the next FPDU
        assertEquals(28, Fpdu.lengthWithMarkers(22, 512 - 28));
    }
}
