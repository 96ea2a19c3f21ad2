package org.jwarp.wire;

import java.lang.foreign.MemorySegment;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import org.jwarp.wire.ddp.DdpHeader;
import org.jwarp.wire.ddp.DdpSegmenter;
import org.jwarp.wire.fpdu.FpduDecoder;
import org.jwarp.wire.fpdu.FpduEncoder;
import org.jwarp.wire.mpa.MpaVectors;
import org.jwarp.wire.rdmap.RdmapOpcode;
import org.jwarp.wire.rdmap.ReadRequestHeader;

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
        byte[] zeros = new byte[24];
        fpdu(out, "RFC 5044 §4.4 Figure 5: marker + Send", WireVectors.RFC5044_FPDU_1, true, 0,
                RdmapOpcode.SEND, 1, zeros);
        fpdu(out, "RFC 5044 §4.4 Figure 6: Send with a marker inside", WireVectors.RFC5044_FPDU_2, true,
                WireVectors.RFC5044_FPDU_2_STREAM_POSITION, RdmapOpcode.SEND, 2, zeros);
        fpdu(out, "RDMA Write of 8 bytes (tagged, CRC on)", WireVectors.RDMA_WRITE_8, false, 0,
                RdmapOpcode.RDMA_WRITE, 0x1234, "ABCDEFGH".getBytes(StandardCharsets.US_ASCII));
        fpdu(out, "Send of 4 bytes (untagged, CRC on)", WireVectors.SEND_4, false, 0,
                RdmapOpcode.SEND, 1, "ABCD".getBytes(StandardCharsets.US_ASCII));
        readRequest(out);
        MpaVectors.addTo(out);
        return out;
    }

    /**
     * Encodes a one-segment message with the production segmenter and encoder and compares the
     * bytes; then decodes the published bytes and checks the decoder accepts them whole.
     * {@code key} is the MSN (untagged) or the STag (tagged, TO 0x10).
     */
    private static void fpdu(List<Result> out, String name, String wireHex, boolean markers, long position,
                             RdmapOpcode op, int key, byte[] payload) {
        DdpSegmenter seg = new DdpSegmenter();
        if (op.tagged()) {
            seg.tagged(op, key, 0x10, payload.length, 1442);
        } else {
            seg.untagged(op, key, 0, payload.length, 1442);
        }
        seg.next();
        MemorySegment header = MemorySegment.ofArray(new byte[DdpHeader.UNTAGGED_LENGTH]);
        int headerLength = seg.writeHeader(header, 0);
        FpduEncoder encoder = new FpduEncoder().start(true, markers, position);
        MemorySegment encoded = MemorySegment.ofArray(new byte[(int) encoder.encodedLength(headerLength + payload.length)]);
        encoder.encode(encoded, 0, header, 0, headerLength, MemorySegment.ofArray(payload), 0, payload.length);
        compare(out, name, wireHex, encoded, position, markers);
    }

    private static void readRequest(List<Result> out) {
        MemorySegment header = MemorySegment.ofArray(new byte[DdpHeader.UNTAGGED_LENGTH + ReadRequestHeader.LENGTH]);
        int h = DdpHeader.writeUntagged(header, 0, true, RdmapOpcode.RDMA_READ_REQUEST, 0,
                RdmapOpcode.QN_READ_REQUEST, 1, 0);
        ReadRequestHeader.write(header, h, 0x5678, 0x2000, 8, 0x1234, 0x10);
        FpduEncoder encoder = new FpduEncoder().start(true, false, 0);
        MemorySegment encoded = MemorySegment.ofArray(new byte[52]);
        encoder.encode(encoded, 0, header, 0, (int) header.byteSize(), MemorySegment.NULL, 0, 0);
        compare(out, "RDMA Read Request (QN 1, MSN 1, CRC on)", WireVectors.READ_REQUEST_8, encoded, 0, false);
    }

    private static void compare(List<Result> out, String name, String wireHex, MemorySegment encoded,
                                long position, boolean markers) {
        MemorySegment expected = MemorySegment.ofArray(Wire.unhex(wireHex));
        String got = Wire.hex(encoded, 0, encoded.byteSize());
        String want = Wire.hex(expected, 0, expected.byteSize());
        FpduDecoder decoder = new FpduDecoder().start(true, markers, false, position);
        decoder.feed(expected, 0, expected.byteSize());
        int event;
        int ends = 0;
        while ((event = decoder.next()) > FpduDecoder.NEED_MORE) {
            ends += event == FpduDecoder.END ? 1 : 0;
        }
        boolean decoded = event == FpduDecoder.NEED_MORE && ends == 1;
        String detail = !got.equals(want) ? "expected " + want + "\n       encoded  " + got
                : "decoder: " + (decoder.failed() ? decoder.error().description() : "no complete FPDU");
        out.add(new Result(name + ": encode and decode", got.equals(want) && decoded, detail));
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
