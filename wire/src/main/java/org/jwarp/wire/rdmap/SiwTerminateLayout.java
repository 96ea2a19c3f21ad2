package org.jwarp.wire.rdmap;

/**
 * Reads a received Terminate Control word that Linux siw may have written in its own layout.
 *
 * <p>RFC 5040 §4.8 lays the word out as Layer (bits 31-28), EType (27-24), Error Code (23-16),
 * then M, D, R (0x8000, 0x4000, 0x2000) and 13 reserved bits. siw (6.1, {@code iwarp.h}) declares it
 * as C bit-fields for little-endian CPUs ({@code layer:4, etype:4, ecode:8, flag_m:1, flag_d:1,
 * flag_r:1}), so on x86 the two nibbles of the first byte are swapped (EType high, Layer low) and
 * M, D, R land in the low bits of the third byte (0x0100, 0x0200, 0x0400 of the word), which the
 * RFC reserves. The Error Code byte is where the RFC has it.
 *
 * <p>Three signs tell the layouts apart. (1) Reserved bits 0x0700 set with M, D, R clear: siw's
 * flags; RFC senders send reserved bits as 0. (2) Before any other FPDU from the peer, no flags,
 * and the RFC reading is "RDMAP remote operation error" (0x02 in the first byte): nothing of ours
 * can have failed at the peer's RDMAP yet, while siw sends its connection-setup errors of RFC 6581
 * §8 (LLP layer 2, MPA type 0: invalid Reply, not enough IRD, no matching RTR) exactly then — and
 * in its layout they read 0x02. (3) No flags, 0x02 in the first byte, and an Error Code that RFC
 * 5040 §4.8 does not define for a remote operation error (0x01 to 0x04) while RFC 5044 §8 defines
 * it for MPA: siw's LLP errors carry no header (no flags), so its MPA CRC error (code 0x02, sent
 * when the CRC it computed differs from the FPDU's) arrives as 0x0202_0000 at any point of the
 * stream. Otherwise the word is taken as the RFC lays it out.
 */
public final class SiwTerminateLayout {

    private static final int RFC_FLAGS = TerminateHeader.M | TerminateHeader.D | TerminateHeader.R;
    private static final int SIW_M = 0x0100;
    private static final int SIW_D = 0x0200;
    private static final int SIW_R = 0x0400;
    private static final int SIW_FLAGS = SIW_M | SIW_D | SIW_R;

    private SiwTerminateLayout() {
    }

    /**
     * The word in RFC 5040 layout.
     *
     * @param word       the received Terminate Control word (FPDU offset 20, big-endian)
     * @param firstFpdu  the Terminate is the first FPDU received on the stream
     */
    public static int toRfc(int word, boolean firstFpdu) {
        if ((word & RFC_FLAGS) == 0 && (word & SIW_FLAGS) != 0) {
            int flags = ((word & SIW_M) != 0 ? TerminateHeader.M : 0) | ((word & SIW_D) != 0 ? TerminateHeader.D : 0)
                    | ((word & SIW_R) != 0 ? TerminateHeader.R : 0);
            return swapNibbles(word) & 0xFFFF_0000 | flags;
        }
        if ((word & RFC_FLAGS) == 0 && (word >>> 24) == 0x02 && (firstFpdu || onlySiwNamesIt(word))) {
            return swapNibbles(word) & 0xFFFF_0000;
        }
        return word;
    }

    /** True if {@link #toRfc} changes {@code word}. */
    public static boolean isSiwLayout(int word, boolean firstFpdu) {
        return toRfc(word, firstFpdu) != word;
    }

    /** The RFC reading (0, 2, code) names no error, siw's (2, 0, code) names an MPA one. */
    private static boolean onlySiwNamesIt(int word) {
        int code = (word >>> 16) & 0xFF;
        return TerminateError.of(TerminateError.LAYER_RDMAP, RdmapError.TYPE_REMOTE_OPERATION, code) == null
                && TerminateError.of(TerminateError.LAYER_LLP, 0, code) != null;
    }

    private static int swapNibbles(int word) {
        int first = word >>> 24;
        int swapped = (first & 0x0F) << 4 | (first >>> 4);
        return swapped << 24 | (word & 0x00FF_FFFF);
    }
}
