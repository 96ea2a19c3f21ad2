package org.jwarp.wire;

/**
 * Published wire vectors, in wire order, for the self-check and the tests: RFC 5044 §4.4's two
 * annotated FPDUs and the worked examples of the shared wire reference §7 (CRC on, no markers).
 */
public final class WireVectors {

    /** RFC 5044 §4.4 Figure 5: a marker (FPDUPTR 0), then a Send (MSN 1) of 24 zero bytes. */
    public static final String RFC5044_FPDU_1 = """
            00 00 00 00  00 2a 41 43  00 00 00 00  00 00 00 00
            00 00 00 01  00 00 00 00  00 00 00 00  00 00 00 00
            00 00 00 00  00 00 00 00  00 00 00 00  00 00 00 00
            52 23 99 83""";

    /** RFC 5044 §4.4 Figure 6: the next Send (MSN 2), with a marker 20 bytes in (FPDUPTR 0x14). */
    public static final String RFC5044_FPDU_2 = """
            00 2a 41 43  00 00 00 00  00 00 00 00  00 00 00 02
            00 00 00 00  00 00 00 14  00 00 00 00  00 00 00 00
            00 00 00 00  00 00 00 00  00 00 00 00  00 00 00 00
            84 92 58 98""";

    /** Figure 6's FPDU begins 20 bytes before a marker position. */
    public static final long RFC5044_FPDU_2_STREAM_POSITION = 512 - 20;

    /** Reference §7.1: RDMA Write of "ABCDEFGH" to STag 0x1234, TO 0x10. */
    public static final String RDMA_WRITE_8 =
            "00 16 c1 40 00 00 12 34 00 00 00 00 00 00 00 10 41 42 43 44 45 46 47 48 fc 59 b7 b8";

    /** Reference §7.2: Send of "ABCD", MSN 1. */
    public static final String SEND_4 =
            "00 16 41 43 00 00 00 00 00 00 00 00 00 00 00 01 00 00 00 00 41 42 43 44 32 e6 1a fb";

    /** Reference §7.4: Read Request of 8 bytes, sink 0x5678/0x2000, source 0x1234/0x10, MSN 1. */
    public static final String READ_REQUEST_8 =
            "00 2e 41 41 00 00 00 00 00 00 00 01 00 00 00 01 00 00 00 00 00 00 56 78 "
                    + "00 00 00 00 00 00 20 00 00 00 00 08 00 00 12 34 00 00 00 00 00 00 00 10 2e 57 4a 8b";

    private WireVectors() {
    }
}
