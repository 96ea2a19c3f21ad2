package org.jwarp.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

/** The capture verdict, on tshark 4.0 output taken from a real jwarp -> siw session. */
class TsharkVerdictTest {

    private static final String FIELDS = """
            1|57858|0|eth:ethertype:ip:tcp||||||
            4|57858|24|eth:ethertype:ip:tcp:iwarp_mpa||||||
            6|7174|24|eth:ethertype:ip:tcp:iwarp_mpa||||||
            8|57858|20|eth:ethertype:ip:tcp:iwarp_mpa:iwarp_ddp_rdmap||14||||
            13|57858|4120|eth:ethertype:ip:tcp:iwarp_mpa:iwarp_ddp_rdmap:data||4111||||
            16|7174|1496|eth:ethertype:ip:tcp:iwarp_mpa:iwarp_ddp_rdmap:data||1450,34||||
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
        assertFalse(TsharkVerdict.of(FIELDS + "20|7174|100|eth:ethertype:ip:tcp||||||\n", CRCS).clean());
        assertTrue(TsharkVerdict.of(FIELDS + "20|7174|100|eth:ethertype:ip:tcp|21|||||\n", CRCS).clean());
    }

    /** A 40-byte SEND that TCP sent again, as tshark 4.0 printed it for a capture with the frame doubled. */
    @Test
    void aRetransmissionIsCountedNotJudged() {
        TsharkVerdict v = TsharkVerdict.of(FIELDS + "17|57858|40|eth:ethertype:ip:tcp|||1|||\n", CRCS);
        assertTrue(v.clean(), v.toString());
        assertEquals(1, v.retransmissions());
        assertEquals(5, v.dataFrames());
        assertTrue(TsharkVerdict.of(FIELDS + "17|57858|40|eth:ethertype:ip:tcp||||1||\n", CRCS).clean());
    }

    @Test
    void aRetransmittedRequestIsNotASecondSend() {
        String again = FIELDS.replace("6|7174|24|", "5|57858|24|eth:ethertype:ip:tcp|||1|||\n6|7174|24|");
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

    /**
     * A perftest send_bw session (jwarp on the host as server) whose capture missed a segment under
     * load, as tshark 4.0 printed it: frame 57 holds the first 20 bytes of an FPDU whose rest went
     * uncaptured, frame 58 (the peer) ACKs the unseen bytes and frame 59 follows the gap.
     */
    private static final String LOSSY = """
            18|57582|0|eth:ethertype:ip:tcp||||||
            19|28515|0|eth:ethertype:ip:tcp||||||
            20|57582|0|eth:ethertype:ip:tcp||||||
            21|57582|24|eth:ethertype:ip:tcp:iwarp_mpa||||||
            22|28515|0|eth:ethertype:ip:tcp||||||
            23|28515|24|eth:ethertype:ip:tcp:iwarp_mpa||||||
            24|57582|0|eth:ethertype:ip:tcp||||||
            35|57582|1452|eth:ethertype:ip:tcp|36|||||
            36|57582|32768|eth:ethertype:ip:tcp:iwarp_mpa:iwarp_ddp_rdmap:iwarp_mpa:iwarp_ddp_rdmap:iwarp_ddp_rdmap:rpcordma||1450,1450,1250||||
            37|28515|0|eth:ethertype:ip:tcp||||||
            38|57582|580|eth:ethertype:ip:tcp:iwarp_mpa:iwarp_ddp_rdmap||1450||||
            40|28515|0|eth:ethertype:ip:tcp||||||
            41|57582|8192|eth:ethertype:ip:tcp:iwarp_mpa:iwarp_ddp_rdmap:iwarp_ddp_rdmap:rpcordma||1450,1250||||
            42|28515|0|eth:ethertype:ip:tcp||||||
            43|57582|8192|eth:ethertype:ip:tcp:iwarp_mpa:iwarp_ddp_rdmap:iwarp_mpa:iwarp_ddp_rdmap:iwarp_ddp_rdmap:rpcordma||1450,1450,1250||||
            44|28515|0|eth:ethertype:ip:tcp||||||
            45|57582|8192|eth:ethertype:ip:tcp:iwarp_mpa:iwarp_ddp_rdmap:iwarp_mpa:iwarp_ddp_rdmap:iwarp_ddp_rdmap:rpcordma||1450,1450,1250||||
            46|28515|0|eth:ethertype:ip:tcp||||||
            47|57582|7312|eth:ethertype:ip:tcp:iwarp_mpa:iwarp_ddp_rdmap:iwarp_mpa:iwarp_ddp_rdmap:iwarp_ddp_rdmap:rpcordma||1450,1450,1250||||
            48|28515|0|eth:ethertype:ip:tcp||||||
            49|57582|1452|eth:ethertype:ip:tcp|51|||||
            50|28515|0|eth:ethertype:ip:tcp||||||
            51|57582|4|eth:ethertype:ip:tcp:iwarp_mpa:iwarp_ddp_rdmap||1450||||
            52|28515|0|eth:ethertype:ip:tcp||||||
            53|57582|1456|eth:ethertype:ip:tcp:iwarp_mpa:iwarp_ddp_rdmap||1450||||
            54|28515|0|eth:ethertype:ip:tcp||||||
            55|57582|1256|eth:ethertype:ip:tcp:iwarp_mpa:iwarp_ddp_rdmap:rpcordma||1250||||
            56|28515|0|eth:ethertype:ip:tcp||||||
            57|57582|20|eth:ethertype:ip:tcp||||||
            58|28515|24|eth:ethertype:ip:tcp:iwarp_mpa:iwarp_ddp_rdmap:data||18||||1
            59|57582|1452|eth:ethertype:ip:tcp|60||||1|
            60|57582|59392|eth:ethertype:ip:tcp:iwarp_mpa:iwarp_ddp_rdmap:iwarp_mpa:iwarp_ddp_rdmap:iwarp_ddp_rdmap:rpcordma||1450,1450,1250||||
            61|28515|0|eth:ethertype:ip:tcp||||||1
            62|57582|4588|eth:ethertype:ip:tcp:iwarp_mpa:iwarp_ddp_rdmap:iwarp_mpa:iwarp_ddp_rdmap:rpcordma||1450,1250||||
            63|28515|24|eth:ethertype:ip:tcp:iwarp_mpa:iwarp_ddp_rdmap:data||18||||
            64|57582|1256|eth:ethertype:ip:tcp:iwarp_mpa:iwarp_ddp_rdmap:rpcordma||1250||||
            65|28515|0|eth:ethertype:ip:tcp||||||
            66|57582|63976|eth:ethertype:ip:tcp:iwarp_mpa:iwarp_ddp_rdmap:iwarp_ddp_rdmap:iwarp_ddp_rdmap:rpcordma||1450,1450,1250||||
            67|28515|0|eth:ethertype:ip:tcp||||||
            68|28515|24|eth:ethertype:ip:tcp:iwarp_mpa:iwarp_ddp_rdmap:data||18||||
            69|28515|24|eth:ethertype:ip:tcp:iwarp_mpa:iwarp_ddp_rdmap:data||18||||
            70|57582|0|eth:ethertype:ip:tcp||||||
            71|57582|2712|eth:ethertype:ip:tcp:iwarp_mpa:iwarp_ddp_rdmap:iwarp_ddp_rdmap:rpcordma||1450,1250||||
            72|28515|24|eth:ethertype:ip:tcp:iwarp_mpa:iwarp_ddp_rdmap:data||18||||
            73|57582|0|eth:ethertype:ip:tcp||||||
            77|57582|0|eth:ethertype:ip:tcp||||||
            78|28515|0|eth:ethertype:ip:tcp||||||
            79|57582|0|eth:ethertype:ip:tcp||||||
            """;
    private static final String LOSSY_CRCS = """
            CRC check: 0x4808668b (Good CRC32)
            CRC check: 0x05fbafee (Good CRC32)
            CRC check: 0xfd4853be (Good CRC32)
            CRC check: 0x609f4241 (Good CRC32)
            CRC check: 0x2d6c8b24 (Good CRC32)
            CRC check: 0x9f5acd67 (Good CRC32)
            CRC check: 0xaabacb73 (Good CRC32)
            CRC check: 0xe7490216 (Good CRC32)
            CRC check: 0x7fe55cd3 (Good CRC32)
            CRC check: 0xf4d45024 (Good CRC32)
            CRC check: 0xb9279941 (Good CRC32)
            CRC check: 0xae53020b (Good CRC32)
            CRC check: 0x3ef1d916 (Good CRC32)
            CRC check: 0x73021073 (Good CRC32)
            CRC check: 0x4eec93bf (Good CRC32)
            CRC check: 0xe950c31a (Good CRC32)
            CRC check: 0xa4a30a7f (Good CRC32)
            CRC check: 0xc81a8308 (Good CRC32)
            CRC check: 0xd191681d (Good CRC32)
            CRC check: 0x23754a28 (Good CRC32)
            CRC check: 0x6e86834d (Good CRC32)
            CRC check: 0x28a512bc (Good CRC32)
            CRC check: 0xb63c09c8 (Good CRC32)
            CRC check: 0x669a1fd6 (Good CRC32)
            CRC check: 0x1f112e8f (Good CRC32)
            CRC check: 0x76fac638 (Good CRC32)
            CRC check: 0x31ea499f (Good CRC32)
            CRC check: 0x7c1980fa (Good CRC32)
            CRC check: 0x86258e62 (Good CRC32)
            CRC check: 0xbce6093c (Good CRC32)
            CRC check: 0x72664fae (Good CRC32)
            CRC check: 0x38d36172 (Good CRC32)
            CRC check: 0x43a8168e (Good CRC32)
            CRC check: 0xf3452811 (Good CRC32)
            """;

    @Test
    void aPduCutByCaptureLossIsReportedAsSuchNotAsAProblem() {
        TsharkVerdict v = TsharkVerdict.of(LOSSY, LOSSY_CRCS);
        assertTrue(v.clean(), v.toString());
        assertEquals(48, v.frames());
        assertEquals(34, v.fpdus());
        assertEquals(34, v.goodCrcs());
        assertEquals(3, v.captureLosses());
        assertEquals(List.of("frame 57: 20 TCP bytes that do not decode as iWARP (eth:ethertype:ip:tcp), before a segment"
                + " the capture missed (frame 58: ACKed unseen segment)"), v.cutByCapture());
        assertTrue(v.toString().contains("3 frames next to segments the capture missed; cut by the capture: [frame 57:"),
                v.toString());
    }

    @Test
    void theSenderMarkingTheGapAloneAlsoExplainsTheCut() {
        TsharkVerdict v = TsharkVerdict.of(LOSSY.replace("|18||||1\n", "|18||||\n")
                .replace("61|28515|0|eth:ethertype:ip:tcp||||||1", "61|28515|0|eth:ethertype:ip:tcp||||||"), LOSSY_CRCS);
        assertTrue(v.clean(), v.toString());
        assertEquals(1, v.captureLosses());
        assertEquals(List.of("frame 57: 20 TCP bytes that do not decode as iWARP (eth:ethertype:ip:tcp), before a segment"
                + " the capture missed (frame 59: previous segment not captured)"), v.cutByCapture());
    }

    /** The same frames with nothing missing from the capture: 20 undecodable bytes are the wire's fault. */
    @Test
    void anUndecodablePduWithoutCaptureLossStillFails() {
        String whole = LOSSY.lines().map(l -> l.endsWith("|1") || l.endsWith("|1|") ? l.substring(0, l.lastIndexOf('1'))
                + l.substring(l.lastIndexOf('1') + 1) : l).reduce("", (a, b) -> a + b + "\n");
        TsharkVerdict v = TsharkVerdict.of(whole, LOSSY_CRCS);
        assertFalse(v.clean());
        assertEquals(0, v.captureLosses());
        assertEquals(List.of(), v.cutByCapture());
        assertEquals(List.of("frame 57: 20 TCP bytes that do not decode as iWARP (eth:ethertype:ip:tcp)"), v.problems());
    }

    /** A segment the capture missed in the other direction does not excuse this direction's undecodable bytes. */
    @Test
    void aLossInTheOtherDirectionExplainsNothingHere() {
        String other = LOSSY.replace("|18||||1\n", "|18||||\n").replace("|1452|eth:ethertype:ip:tcp|60||||1|",
                "|1452|eth:ethertype:ip:tcp|60|||||").replace("63|28515|24|eth:ethertype:ip:tcp:iwarp_mpa:iwarp_ddp_rdmap:data||18||||",
                "63|28515|24|eth:ethertype:ip:tcp:iwarp_mpa:iwarp_ddp_rdmap:data||18|||1|")
                .replace("61|28515|0|eth:ethertype:ip:tcp||||||1", "61|28515|0|eth:ethertype:ip:tcp||||||");
        TsharkVerdict v = TsharkVerdict.of(other, LOSSY_CRCS);
        assertEquals(1, v.captureLosses());
        assertEquals(List.of("frame 57: 20 TCP bytes that do not decode as iWARP (eth:ethertype:ip:tcp)"), v.problems());
    }

    /** Bytes that start inside a PDU whose head the capture missed do not decode either. */
    @Test
    void aSegmentStartingInsideAPduAfterTheGapIsCutToo() {
        String after = LOSSY.replace("59|57582|1452|eth:ethertype:ip:tcp|60||||1|", "59|57582|1452|eth:ethertype:ip:tcp|||||1|");
        TsharkVerdict v = TsharkVerdict.of(after, LOSSY_CRCS);
        assertTrue(v.clean(), v.toString());
        assertEquals("frame 59: 1452 TCP bytes that do not decode as iWARP (eth:ethertype:ip:tcp), after a segment the"
                + " capture missed", v.cutByCapture().get(1));
    }
}
