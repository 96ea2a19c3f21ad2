package org.jwarp.bench.transport.jwarp;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Arrays;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** perftest's address-and-key message, against one that perftest 4.5 (ib_write_bw -R on siw) sent. */
class PerftestDestTest {

    /** The client's third address exchange of an ib_write_bw -R run, as captured on the wire. */
    private static final byte[] CAPTURED = HexFormat.of().parseHex("00000000" + "00000001" + "00000003" + "007689a1"
            + "dcedb600" + "00000000" + "000056168be51000" + "52540012345600000000000000000000" + "00000000" + "00000000");

    @Test
    void decodesWhatPerftestSent() {
        PerftestDest d = PerftestDest.decode(CAPTURED);
        assertEquals(1, d.outReads());
        assertEquals(3, d.qpn());
        assertEquals(0x7689a1, d.psn());
        assertEquals(0xdcedb600, d.rkey());
        assertEquals(0x56168be51000L, d.vaddr());
    }

    @Test
    void encodesInPerftestsLayoutWithAnEmptyGid() {
        byte[] ours = new PerftestDest(1, 3, 0x7689a1, 0xdcedb600, 0x56168be51000L).encode();
        assertEquals(PerftestDest.SIZE, ours.length);
        assertArrayEquals(Arrays.copyOf(CAPTURED, 32), Arrays.copyOf(ours, 32));
        assertArrayEquals(new byte[24], Arrays.copyOfRange(ours, 32, 56));
    }

    @Test
    void theEmptyExchangeIsAllZeros() {
        assertArrayEquals(new byte[56], PerftestDest.NONE.encode());
    }

    @Test
    void aMessageOfAnotherSizeIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> PerftestDest.decode(new byte[16]));
    }
}
