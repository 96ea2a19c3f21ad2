package org.jwarp.wire.rdmap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.MemorySegment;
import org.jwarp.wire.Wire;
import org.junit.jupiter.api.Test;

/** Terminate Control words as Linux siw 6.1 writes them (C bit-fields on x86), read in RFC 5040 layout. */
class SiwTerminateLayoutTest {

    @Test
    void siwsNoMatchingRtrAsCapturedFromTheWire() {
        // siw (p2p initiator) answering a Reply that chose a Send RTR: the FPDU as tcpdump saw it
        byte[] fpdu = Wire.unhex("00164147000000000000000200000001" + "00000000" + "02070000" + "00000000");
        int word = Wire.i32(MemorySegment.ofArray(fpdu), 20);
        assertEquals(0x0207_0000, word);
        int rfc = SiwTerminateLayout.toRfc(word, true);
        assertEquals(0x2007_0000, rfc);
        assertEquals(MpaError.NO_MATCHING_RTR, TerminateError.of(rfc >>> 28, (rfc >>> 24) & 0xF, (rfc >>> 16) & 0xFF));
    }

    @Test
    void siwsOtherSetupErrors() {
        // invalid Reply key (0x04) and not enough IRD (0x06): layer 2 / type 0, nibbles swapped
        assertEquals(0x2004_0000, SiwTerminateLayout.toRfc(0x0204_0000, true));
        assertEquals(0x2006_0000, SiwTerminateLayout.toRfc(0x0206_0000, true));
    }

    @Test
    void siwsFlagsInTheReservedBitsGiveItAway() {
        // DDP untagged "no buffer" (1, 2, 0x02) with M and D: first byte 0x21, flags 0x03 in byte 22
        assertEquals(0x1202_0000 | TerminateHeader.M | TerminateHeader.D, SiwTerminateLayout.toRfc(0x2102_0300, false));
        // RDMAP remote protection, invalid STag (0, 1, 0x00) with M, D and R
        assertEquals(0x0100_0000 | TerminateHeader.M | TerminateHeader.D | TerminateHeader.R,
                SiwTerminateLayout.toRfc(0x1000_0700, false));
        assertTrue(SiwTerminateLayout.isSiwLayout(0x2102_0300, false));
    }

    @Test
    void rfcWordsStayAsTheyAre() {
        // reference §7.5: CRC error (2, 0, 0x02) and unexpected opcode (0, 2, 0x06) as the RFC writes them
        assertEquals(0x2002_0000, SiwTerminateLayout.toRfc(0x2002_0000, true));
        assertEquals(0x0206_0000, SiwTerminateLayout.toRfc(0x0206_0000, false));
        // DDP tagged invalid STag with M and D
        int ddp = 0x1100_0000 | TerminateHeader.M | TerminateHeader.D;
        assertEquals(ddp, SiwTerminateLayout.toRfc(ddp, true));
        assertFalse(SiwTerminateLayout.isSiwLayout(ddp, false));
    }

    /**
     * siw's MPA CRC error in the middle of a WRITE stream (RFC 5044 §8: layer 2, type 0, code 0x02),
     * as jwarp received it after siw printed "crc error": 0x02 0x02 with no flags, which the RFC
     * layout would read as an RDMAP remote operation error with a code RFC 5040 §4.8 does not define.
     */
    @Test
    void siwsCrcErrorMidStream() {
        int rfc = SiwTerminateLayout.toRfc(0x0202_0000, false);
        assertEquals(0x2002_0000, rfc);
        assertEquals(MpaError.CRC_ERROR, TerminateError.of(rfc >>> 28, (rfc >>> 24) & 0xF, (rfc >>> 16) & 0xFF));
        // the same on the first FPDU (a WRITE stream's receiver has sent nothing before it)
        assertEquals(0x2002_0000, SiwTerminateLayout.toRfc(0x0202_0000, true));
        // siw's TCP-stream-lost, marker and invalid Request/Reply codes (0x01, 0x03, 0x04) alike
        assertEquals(0x2001_0000, SiwTerminateLayout.toRfc(0x0201_0000, false));
        assertEquals(0x2004_0000, SiwTerminateLayout.toRfc(0x0204_0000, false));
    }

    /** Remote operation errors RFC 5040 §4.8 names stay RDMAP errors after the first FPDU. */
    @Test
    void namedRemoteOperationErrorsStayMidStream() {
        for (int code : new int[] {0x05, 0x06, 0x07, 0x08, 0x09, 0xFF}) {
            int word = 0x0200_0000 | code << 16;
            assertEquals(word, SiwTerminateLayout.toRfc(word, false), Integer.toHexString(word));
        }
    }
}
