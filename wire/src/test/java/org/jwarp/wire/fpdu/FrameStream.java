package org.jwarp.wire.fpdu;

import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.List;
import org.jwarp.wire.ddp.DdpHeader;
import org.jwarp.wire.ddp.DdpSegmenter;
import org.jwarp.wire.rdmap.AtomicRequestHeader;
import org.jwarp.wire.rdmap.AtomicResponseHeader;
import org.jwarp.wire.rdmap.ImmediateDataHeader;
import org.jwarp.wire.rdmap.RdmapOpcode;
import org.jwarp.wire.rdmap.ReadRequestHeader;
import org.jwarp.wire.rdmap.TerminateError;
import org.jwarp.wire.rdmap.TerminateHeader;

/**
 * Test helper: builds a byte stream of FPDUs with the production encoder and segmenter, and
 * records what each FPDU should decode to, so a decoding can be compared frame by frame.
 */
public final class FrameStream {

    /** One decoded (or expected) FPDU: the ULPDU's header bytes in hex and its payload. */
    public record Frame(RdmapOpcode opcode, String header, byte[] payload) {
        @Override
        public boolean equals(Object o) {
            return o instanceof Frame f && f.opcode == opcode && f.header.equals(header)
                    && Arrays.equals(f.payload, payload);
        }

        @Override
        public int hashCode() {
            return header.hashCode() * 31 + Arrays.hashCode(payload);
        }

        @Override
        public String toString() {
            return opcode + "[" + header + "]+" + payload.length + "B";
        }
    }

    private static final HexFormat HEX = HexFormat.of();

    private final FpduEncoder encoder = new FpduEncoder();
    private final DdpSegmenter segmenter = new DdpSegmenter();
    private final MemorySegment scratch = MemorySegment.ofArray(new byte[128]);
    private final List<Frame> frames = new ArrayList<>();
    private byte[] bytes = new byte[1024];
    private int length;

    public FrameStream(boolean crc, boolean markers, long streamPosition) {
        encoder.start(crc, markers, streamPosition);
    }

    public List<Frame> frames() {
        return frames;
    }

    public byte[] bytes() {
        return Arrays.copyOf(bytes, length);
    }

    public FpduEncoder encoder() {
        return encoder;
    }

    public FrameStream write(RdmapOpcode op, int stag, long to, byte[] payload, int mulpdu) {
        segmenter.tagged(op, stag, to, payload.length, mulpdu);
        return segments(op, payload);
    }

    public FrameStream send(RdmapOpcode op, int msn, int invalidateStag, byte[] payload, int mulpdu) {
        segmenter.untagged(op, msn, invalidateStag, payload.length, mulpdu);
        return segments(op, payload);
    }

    private FrameStream segments(RdmapOpcode op, byte[] payload) {
        MemorySegment p = MemorySegment.ofArray(payload);
        while (segmenter.next()) {
            int h = segmenter.writeHeader(scratch, 0);
            int off = (int) segmenter.messageOffset();
            append(op, h, p, off, segmenter.payloadLength());
        }
        return this;
    }

    public FrameStream readRequest(int msn, int sinkStag, long sinkTo, long size, int srcStag, long srcTo) {
        int h = DdpHeader.writeUntagged(scratch, 0, true, RdmapOpcode.RDMA_READ_REQUEST, 0,
                RdmapOpcode.QN_READ_REQUEST, msn, 0);
        ReadRequestHeader.write(scratch, h, sinkStag, sinkTo, size, srcStag, srcTo);
        return append(RdmapOpcode.RDMA_READ_REQUEST, h + ReadRequestHeader.LENGTH, scratch, 0, 0);
    }

    public FrameStream immediate(boolean solicited, int msn, long data) {
        RdmapOpcode op = solicited ? RdmapOpcode.IMMEDIATE_DATA_WITH_SE : RdmapOpcode.IMMEDIATE_DATA;
        int h = DdpHeader.writeUntagged(scratch, 0, true, op, 0, RdmapOpcode.QN_SEND, msn, 0);
        ImmediateDataHeader.write(scratch, h, data);
        return append(op, h + ImmediateDataHeader.LENGTH, scratch, 0, 0);
    }

    public FrameStream atomicRequest(int msn, int aop, int id, int stag, long to, long a, long b, long c, long d) {
        int h = DdpHeader.writeUntagged(scratch, 0, true, RdmapOpcode.ATOMIC_REQUEST, 0,
                RdmapOpcode.QN_READ_REQUEST, msn, 0);
        AtomicRequestHeader.write(scratch, h, aop, id, stag, to, a, b, c, d);
        return append(RdmapOpcode.ATOMIC_REQUEST, h + AtomicRequestHeader.LENGTH, scratch, 0, 0);
    }

    public FrameStream atomicResponse(int msn, int id, long value) {
        int h = DdpHeader.writeUntagged(scratch, 0, true, RdmapOpcode.ATOMIC_RESPONSE, 0,
                RdmapOpcode.QN_ATOMIC_RESPONSE, msn, 0);
        AtomicResponseHeader.write(scratch, h, id, value);
        return append(RdmapOpcode.ATOMIC_RESPONSE, h + AtomicResponseHeader.LENGTH, scratch, 0, 0);
    }

    /** A Terminate carrying the given DDP header bytes (empty for none) and optional RDMA header. */
    public FrameStream terminate(TerminateError error, int segmentLength, byte[] ddpHeader, byte[] rdmaHeader) {
        int h = DdpHeader.writeUntagged(scratch, 0, true, RdmapOpcode.TERMINATE, 0, RdmapOpcode.QN_TERMINATE, 1, 0);
        int t = TerminateHeader.write(scratch, h, error, segmentLength,
                MemorySegment.ofArray(ddpHeader), 0, ddpHeader.length,
                rdmaHeader == null ? null : MemorySegment.ofArray(rdmaHeader), 0);
        return append(RdmapOpcode.TERMINATE, h + t, scratch, 0, 0);
    }

    private FrameStream append(RdmapOpcode op, int headerLength, MemorySegment payload, long off, int len) {
        byte[] p = new byte[len];
        MemorySegment.copy(payload, off, MemorySegment.ofArray(p), 0, len);
        byte[] header = new byte[headerLength];
        MemorySegment.copy(scratch, 0, MemorySegment.ofArray(header), 0, headerLength);
        frames.add(new Frame(op, HEX.formatHex(header), p));
        long need = encoder.encodedLength(headerLength + len);
        if (length + need > bytes.length) {
            bytes = Arrays.copyOf(bytes, (int) Math.max(bytes.length * 2L, length + need));
        }
        length += encoder.encode(MemorySegment.ofArray(bytes), length, scratch, 0, headerLength, payload, off, len);
        return this;
    }
}
