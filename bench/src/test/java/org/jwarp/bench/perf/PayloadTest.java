package org.jwarp.bench.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.junit.jupiter.api.Test;

class PayloadTest {

    @Test
    void stampsNeverEndInTheZeroedOrTheEndByteAndChangeTheirLastByteEveryRound() {
        for (int width = 1; width <= 8; width++) {
            long previous = 0;
            for (long r = 1; r <= 70_000; r++) {
                long s = Payload.stamp(r, width);
                int low = (int) (s & 0xFF);
                assertTrue(low != 0x00 && low != Payload.END_LOW, "round " + r + " width " + width + ": " + s);
                assertNotEquals(previous & 0xFF, s & 0xFF, "round " + r + " width " + width);
                assertNotEquals(Payload.endStamp(width), s);
                previous = s;
            }
        }
        assertEquals(1, Payload.stamp(1, 8));
        assertEquals(254, Payload.stamp(254, 8));
        assertEquals(0x101, Payload.stamp(255, 8));
        assertEquals(0xFF, Payload.endStamp(1));
        assertEquals(-1L, Payload.endStamp(8));
    }

    @Test
    void aStampIsTheBigEndianTailOfTheMessage() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment m = a.allocate(16);
            Payload.putStamp(m, 0, 12, 0x0102030405060708L);
            assertEquals(0x01, m.get(ValueLayout.JAVA_BYTE, 4));
            assertEquals(0x08, m.get(ValueLayout.JAVA_BYTE, 11));
            assertEquals(0x0102030405060708L, Payload.getStamp(m, 0, 12));
            assertEquals(0x08, Payload.lastByteAcquire(m, 0, 12));
            Payload.putStamp(m, 0, 2, 0xABCD);
            assertEquals(0xABCD, Payload.getStamp(m, 0, 2));
        }
    }

    @Test
    void thePatternChecksByteExactlyAndNamesTheFirstWrongByte() {
        try (Arena a = Arena.ofConfined()) {
            for (int size : new int[] {1, 7, 8, 9, 4096, 65_537}) {
                MemorySegment m = a.allocate(size + 16);
                Payload.fill(m, 3, size, size);
                assertEquals(-1, Payload.check(m, 3, size, size), "size " + size);
                for (long k = 0; k < size; k += Math.max(1, size / 7)) {
                    assertEquals(Payload.expected(k, size), m.get(ValueLayout.JAVA_BYTE, 3 + k));
                }
                long bad = size / 2;
                m.set(ValueLayout.JAVA_BYTE, 3 + bad, (byte) ~Payload.expected(bad, size));
                assertEquals(bad, Payload.check(m, 3, size, size), "size " + size);
                assertEquals(bad, Payload.check(m, 3, bad, size, size), "from the wrong byte on");
                assertEquals(-1, Payload.check(m, 3, bad + 1, size, size), "from after it");
            }
        }
    }

    @Test
    void patternsOfDifferentSizesDifferSoAStaleBufferFails() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment m = a.allocate(4096);
            Payload.fill(m, 0, 4096, 2048);
            assertTrue(Payload.check(m, 0, 4096, 4096) >= 0);
            // and the pattern is not periodic in 256 bytes: a shifted copy fails
            Payload.fill(m, 0, 4096, 4096);
            MemorySegment.copy(m, 256, m, 0, 256);
            long at = Payload.check(m, 0, 4096, 4096);
            assertTrue(at >= 0 && at < 8, "found at " + at);
        }
    }

    @Test
    void aMismatchIsOneLine() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment m = a.allocate(64);
            Payload.fill(m, 0, 64, 64);
            m.set(ValueLayout.JAVA_BYTE, 10, (byte) (Payload.expected(10, 64) ^ 0x0F));
            String line = Payload.mismatch("server", m, 0, Payload.check(m, 0, 64, 64), 64);
            assertEquals(String.format("server: byte 10 of the 64-byte message is 0x%02x, expected 0x%02x",
                    (Payload.expected(10, 64) ^ 0x0F) & 0xFF, Payload.expected(10, 64) & 0xFF), line);
        }
    }
}
