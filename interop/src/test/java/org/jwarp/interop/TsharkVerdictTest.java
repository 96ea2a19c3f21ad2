package org.jwarp.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The capture verdict, on tshark 4.0 output taken from a real jwarp -> siw session. */
class TsharkVerdictTest {

    private static final String FIELDS = """
            1|57858|0|eth:ethertype:ip:tcp||||
            4|57858|24|eth:ethertype:ip:tcp:iwarp_mpa||||
            6|7174|24|eth:ethertype:ip:tcp:iwarp_mpa||||
            8|57858|20|eth:ethertype:ip:tcp:iwarp_mpa:iwarp_ddp_rdmap||14||
            13|57858|4120|eth:ethertype:ip:tcp:iwarp_mpa:iwarp_ddp_rdmap:data||4111||
            16|7174|1496|eth:ethertype:ip:tcp:iwarp_mpa:iwarp_ddp_rdmap:data||1450,34||
            """;
    private static final String CRCS = """
                    CRC check: 0x153a485d (Good CRC32)
                    CRC check: 0x21a3df65 (Good CRC32)
                    CRC check: 0x2e8bc75f (Good CRC32)
                    CRC check: 0x329dc938 (Good CRC32)
            """;

    @Test
    void aCleanSession() {
        TsharkVerdict v = TsharkVerdict.of(FIELDS, CRCS);
        assertTrue(v.clean(), v.toString());
        assertEquals(6, v.frames());
        assertEquals(5, v.dataFrames());
        assertEquals(2, v.mpaFrames());
        assertEquals(4, v.fpdus());
    }

    @Test
    void aBadCrcIsAProblem() {
        TsharkVerdict v = TsharkVerdict.of(FIELDS, CRCS.replace("0x329dc938 (Good CRC32)",
                "0x00000000 (Bad CRC32, should be 0x11e5f8d6)"));
        assertFalse(v.clean());
        assertEquals("bad CRC: CRC check: 0x00000000 (Bad CRC32, should be 0x11e5f8d6)", v.problems().get(0));
    }

    @Test
    void bytesThatAreNotIwarpAreAProblemUnlessReassembledLater() {
        assertFalse(TsharkVerdict.of(FIELDS + "20|7174|100|eth:ethertype:ip:tcp||||\n", CRCS).clean());
        assertTrue(TsharkVerdict.of(FIELDS + "20|7174|100|eth:ethertype:ip:tcp|21|||\n", CRCS).clean());
    }

    /** A 40-byte SEND that TCP sent again, as tshark 4.0 printed it for a capture with the frame doubled. */
    @Test
    void aRetransmissionIsCountedNotJudged() {
        TsharkVerdict v = TsharkVerdict.of(FIELDS + "17|57858|40|eth:ethertype:ip:tcp|||1|\n", CRCS);
        assertTrue(v.clean(), v.toString());
        assertEquals(1, v.retransmissions());
        assertEquals(5, v.dataFrames());
        assertTrue(TsharkVerdict.of(FIELDS + "17|57858|40|eth:ethertype:ip:tcp||||1\n", CRCS).clean());
    }

    @Test
    void aRetransmittedRequestIsNotASecondSend() {
        String again = FIELDS.replace("6|7174|24|", "5|57858|24|eth:ethertype:ip:tcp|||1|\n6|7174|24|");
        assertTrue(TsharkVerdict.of(again, CRCS).clean());
    }

    @Test
    void theResponderMustWaitForTheInitiatorsFirstFpdu() {
        String early = FIELDS.replace("8|57858|20|", "8|7174|20|");
        assertEquals(List.of("the responder sent before the initiator's first FPDU"),
                TsharkVerdict.of(early, CRCS).problems());
    }

    @Test
    void fewerCrcVerdictsThanFpdus() {
        TsharkVerdict v = TsharkVerdict.of(FIELDS, CRCS.lines().skip(1).reduce("", (a, b) -> a + b + "\n"));
        assertEquals("4 FPDUs but 3 good CRC checks", v.problems().get(0));
    }
}
