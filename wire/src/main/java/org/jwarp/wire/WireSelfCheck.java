package org.jwarp.wire;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.List;

/**
 * Runs the wire layer against vectors published by others (RFC 3720 Appendix B.4, RFC 5044 §4.4)
 * so that a user can see, before connecting to anything, that this build puts the right bytes on
 * the wire. The unit tests check the same vectors and many more.
 */
public final class WireSelfCheck {

    /** One check: what was checked, whether it passed, and what differed if not. */
    public record Result(String name, boolean passed, String detail) {
    }

    private WireSelfCheck() {
    }

    public static List<Result> runAll() {
        List<Result> out = new ArrayList<>();
        crc(out, "CRC32c check value of \"123456789\"", "313233343536373839", Crc32c.CHECK_VALUE);
        crc(out, "CRC32c RFC 3720 B.4: 32 bytes of zeros", "00".repeat(32), 0x8A9136AA);
        crc(out, "CRC32c RFC 3720 B.4: 32 bytes of ones", "ff".repeat(32), 0x62A8AB43);
        crc(out, "CRC32c RFC 3720 B.4: 32 incrementing bytes", incrementing(), 0x46DD794E);
        crc(out, "CRC32c RFC 3720 B.4: 32 decrementing bytes", decrementing(), 0x113FDB5C);
        crc(out, "CRC32c RFC 3720 B.4: iSCSI SCSI Read(10) PDU",
                "01c00000000000000000000000000000140000000000040000000014000000182800000000000000"
                        + "0200000000000000", 0xD9963A56);
        return out;
    }

    private static void crc(List<Result> out, String name, String inputHex, int expected) {
        MemorySegment in = MemorySegment.ofArray(Wire.unhex(inputHex));
        int got = Crc32c.of(in, 0, in.byteSize());
        out.add(new Result(name, got == expected,
                String.format("expected 0x%08X, computed 0x%08X", expected, got)));
    }

    private static String incrementing() {
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 32; i++) {
            sb.append(String.format("%02x", i));
        }
        return sb.toString();
    }

    private static String decrementing() {
        StringBuilder sb = new StringBuilder();
        for (int i = 31; i >= 0; i--) {
            sb.append(String.format("%02x", i));
        }
        return sb.toString();
    }
}
