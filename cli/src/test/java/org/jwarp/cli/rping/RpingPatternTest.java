package org.jwarp.cli.rping;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** rping's data, worked out by hand from rping.c's loop (snprintf, then 'A'..'z' from 65 + ping mod 58, NUL last). */
class RpingPatternTest {

    private static byte[] fill(int size, int ping) {
        byte[] b = new byte[size];
        java.util.Arrays.fill(b, (byte) '#');
        RpingPattern.fill(MemorySegment.ofArray(b), size, ping);
        return b;
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    @Test
    void smallestSizeFirstPings() {
        assertEquals(new String(ascii("rdma-ping-0: ABCDEFGHI\0")), new String(fill(23, 0), StandardCharsets.US_ASCII));
        assertEquals(new String(ascii("rdma-ping-1: BCDEFGHIJ\0")), new String(fill(23, 1), StandardCharsets.US_ASCII));
    }

    @Test
    void theStartLetterCyclesEvery58Pings() {
        assertEquals("rdma-ping-57: zABCDEFG\0", new String(fill(23, 57), StandardCharsets.US_ASCII));
        assertEquals("rdma-ping-58: ABCDEFGH\0", new String(fill(23, 58), StandardCharsets.US_ASCII));
    }

    @Test
    void lettersWrapFromZToA() {
        byte[] b = fill(100, 0);
        assertEquals('z', b[13 + 57]);
        assertEquals('A', b[13 + 58]);
        assertEquals(0, b[99]);
    }

    @Test
    void textLongerThanTheBufferIsTruncatedAsSnprintfDoes() {
        // "rdma-ping-2147483647: " is 22 characters: snprintf keeps 22 of them in 23 bytes, then the NUL
        assertEquals("rdma-ping-2147483647: \0", new String(fill(23, Integer.MAX_VALUE), StandardCharsets.US_ASCII));
        // in 24 bytes the text fits and one letter follows: 65 + 2147483647 mod 58 = 72, 'H'
        assertEquals("rdma-ping-2147483647: H\0", new String(fill(24, Integer.MAX_VALUE), StandardCharsets.US_ASCII));
    }

    @Test
    void mismatchFindsTheFirstWrongByte() {
        byte[] b = fill(1000, 7);
        MemorySegment scratch = MemorySegment.ofArray(new byte[1000]);
        assertEquals(-1, RpingPattern.firstMismatch(MemorySegment.ofArray(b), 1000, 7, scratch));
        b[517] ^= 1;
        assertEquals(517, RpingPattern.firstMismatch(MemorySegment.ofArray(b), 1000, 7, scratch));
        assertEquals(10, RpingPattern.firstMismatch(MemorySegment.ofArray(fill(1000, 8)), 1000, 7, scratch));
    }

    @Test
    void cStringStopsAtTheNul() {
        assertEquals("rdma-ping-0: ABCDEFGHI", RpingPattern.cString(MemorySegment.ofArray(fill(23, 0)), 23));
        assertEquals("rdma-ping-0: ABCDEFGHI", RpingPattern.expectedLine(23, 0));
    }
}
