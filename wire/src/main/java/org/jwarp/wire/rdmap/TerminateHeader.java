package org.jwarp.wire.rdmap;

import java.lang.foreign.MemorySegment;
import org.jwarp.wire.Wire;
import org.jwarp.wire.ddp.DdpHeader;

/**
 * The Terminate header, after an untagged DDP header on QN 2 (RFC 5040 §4.8, Figure 10):
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * | Layer | EType |  Error Code   |M|D|R|       Reserved          |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |     DDP Segment Length        |                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+                               |
 * +            Terminated DDP Header (tagged 14 / untagged 18)    +
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |              Terminated RDMA Header (Read Request, 28)        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * M says the DDP Segment Length is valid, D that the segment length and terminated DDP header are
 * present, R that the terminated RDMA header is present. siw may set R with no RDMA header
 * following, so a reader takes the lengths from what is actually there (reference §8).
 */
public final class TerminateHeader {

    public static final int MIN_LENGTH = 4;
    public static final int MAX_LENGTH = 4 + 2 + DdpHeader.UNTAGGED_LENGTH + ReadRequestHeader.LENGTH;
    public static final int M = 0x8000;
    public static final int D = 0x4000;
    public static final int R = 0x2000;
    static final int CONTROL = 0;
    static final int SEGMENT_LENGTH = 4;
    static final int DDP_HEADER = 6;

    private MemorySegment segment;
    private long base;
    private int length;

    /** Points the flyweight at a Terminate header of {@code length} bytes (ULPDU length minus 18). */
    public TerminateHeader wrap(MemorySegment segment, long offset, int length) {
        this.segment = segment;
        this.base = offset;
        this.length = length;
        return this;
    }

    public int controlWord() {
        return Wire.i32(segment, base + CONTROL);
    }

    public int layer() {
        return controlWord() >>> 28;
    }

    public int errorType() {
        return (controlWord() >>> 24) & 0xF;
    }

    public int errorCode() {
        return (controlWord() >>> 16) & 0xFF;
    }

    /** The named error, or {@code null} if the triple is not defined by the RFCs. */
    public TerminateError error() {
        return TerminateError.of(layer(), errorType(), errorCode());
    }

    public boolean segmentLengthValid() {
        return (controlWord() & M) != 0;
    }

    public boolean ddpHeaderFlag() {
        return (controlWord() & D) != 0;
    }

    public boolean rdmaHeaderFlag() {
        return (controlWord() & R) != 0;
    }

    /** True if D is set and the bytes for the segment length and a whole DDP header are present. */
    public boolean hasDdpHeader() {
        return ddpHeaderFlag() && length >= DDP_HEADER + 1
                && length >= DDP_HEADER + terminatedDdpHeaderLength();
    }

    public int ddpSegmentLength() {
        return Wire.u16(segment, base + SEGMENT_LENGTH);
    }

    public long terminatedDdpHeaderOffset() {
        return base + DDP_HEADER;
    }

    /** 14 or 18, from the T bit of the terminated header's DDP control byte. */
    public int terminatedDdpHeaderLength() {
        return DdpHeader.headerLength(Wire.u8(segment, base + DDP_HEADER));
    }

    /** True if R is set and a whole Read Request header follows the DDP header. */
    public boolean hasRdmaHeader() {
        return rdmaHeaderFlag() && hasDdpHeader()
                && length >= DDP_HEADER + terminatedDdpHeaderLength() + ReadRequestHeader.LENGTH;
    }

    public long terminatedRdmaHeaderOffset() {
        return base + DDP_HEADER + terminatedDdpHeaderLength();
    }

    public MemorySegment segment() {
        return segment;
    }

    /**
     * Writes a Terminate header and returns its length. RFC 5040 §4.8 Figure 10 decides what is
     * included: pass {@code ddpHeaderLength} 0 to include no DDP header, and {@code rdmaHeader}
     * {@code null} to include no RDMA header.
     *
     * @param segmentLength the DDP Segment Length of the terminated segment, or -1 if not known
     */
    public static int write(MemorySegment s, long off, TerminateError error, int segmentLength,
                            MemorySegment ddpHeader, long ddpHeaderOffset, int ddpHeaderLength,
                            MemorySegment rdmaHeader, long rdmaHeaderOffset) {
        int control = error.controlBits();
        int len = MIN_LENGTH;
        if (ddpHeaderLength > 0) {
            control |= D;
            if (segmentLength >= 0) {
                control |= M;
            }
            Wire.put16(s, off + SEGMENT_LENGTH, Math.max(segmentLength, 0));
            MemorySegment.copy(ddpHeader, ddpHeaderOffset, s, off + DDP_HEADER, ddpHeaderLength);
            len = DDP_HEADER + ddpHeaderLength;
            if (rdmaHeader != null) {
                control |= R;
                MemorySegment.copy(rdmaHeader, rdmaHeaderOffset, s, off + len, ReadRequestHeader.LENGTH);
                len += ReadRequestHeader.LENGTH;
            }
        }
        Wire.put32(s, off + CONTROL, control);
        return len;
    }
}
