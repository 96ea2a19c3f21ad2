package org.jwarp.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/** CRC32c against RFC 3720 Appendix B.4 and the standard check value; wire byte order per RFC 5044 §4.4. */
class Crc32cTest {

    @Test
    void checkValueOf123456789() {
        assertEquals(0xE3069283, Crc32c.of("123456789".getBytes(StandardCharsets.US_ASCII)));
    }

    @Test
    void rfc3720AppendixB4Vectors() {
        byte[] zeros = new byte[32];
        byte[] ones = new byte[32];
        byte[] inc = new byte[32];
        byte[] dec = new byte[32];
        for (int i = 0; i < 32; i++) {
            ones[i] = (byte) 0xFF;
            inc[i] = (byte) i;
            dec[i] = (byte) (31 - i);
        }
        assertEquals(0x8A9136AA, Crc32c.of(zeros));
        assertEquals(0x62A8AB43, Crc32c.of(ones));
        assertEquals(0x46DD794E, Crc32c.of(inc));
        assertEquals(0x113FDB5C, Crc32c.of(dec));
        byte[] scsiRead10 = Wire.unhex("""
                01 c0 00 00 00 00 00 00 00 00 00 00 00 00 00 00
                14 00 00 00 00 00 04 00 00 00 00 14 00 00 00 18
                28 00 00 00 00 00 00 00 02 00 00 00 00 00 00 00""");
        assertEquals(0xD9963A56, Crc32c.of(scsiRead10));
    }

    @Test
    void wireOrderIsLeastSignificantByteFirst() {
        MemorySegment s = MemorySegment.ofArray(new byte[4]);
        Crc32c.putWire(s, 0, 0x8A9136AA);
        assertEquals("aa 36 91 8a", Wire.hex(s, 0, 4));
        assertEquals(0x8A9136AA, Crc32c.getWire(s, 0));
    }

    @Test
    void incrementalUpdatesOverNativeMemoryMatchOneShot() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment s = arena.allocate(4096);
            for (int i = 0; i < 4096; i++) {
                s.set(Wire.BYTE, i, (byte) (i * 31 + 7));
            }
            int whole = Crc32c.of(s, 0, 4096);
            Crc32c c = new Crc32c();
            for (int cut = 0; cut <= 4096; cut += 509) {
                c.reset().update(s, 0, cut).update(s, cut, 4096 - cut);
                assertEquals(whole, c.value(), "split at " + cut);
            }
        }
    }

    @Test
    void residueOfDataFollowedByItsWireCrcIsConstant() {
        // A cheap receive-side check: CRC over (data || CRC in wire order) is the fixed residue
        // 0x48674BC7 for the reflected Castagnoli CRC, whatever the data.
        for (int n = 1; n < 100; n += 7) {
            byte[] b = new byte[n + 4];
            for (int i = 0; i < n; i++) {
                b[i] = (byte) (i * 13 + n);
            }
            MemorySegment s = MemorySegment.ofArray(b);
            Crc32c.putWire(s, n, Crc32c.of(s, 0, n));
            assertEquals(0x48674BC7, Crc32c.of(b), "n=" + n);
        }
        assertTrue(WireSelfCheck.runAll().stream().allMatch(WireSelfCheck.Result::passed));
    }
}
