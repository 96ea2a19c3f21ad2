package org.jwarp.wire.ddp;

import java.lang.foreign.MemorySegment;
import org.jwarp.wire.Wire;
import org.jwarp.wire.rdmap.RdmapOpcode;

/**
 * A flyweight over a DDP segment header (RFC 5041 §4), which starts at the first byte of the MPA
 * ULPDU (FPDU offset 2). The second byte is RsvdULP[0..7], RDMAP's control byte (RFC 5040 §4.1).
 *
 * <p>Tagged buffer model, 14 bytes (RFC 5041 §4.2, Figure 3):
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |T|L| Resrv | DV|   RsvdULP     |             STag ...
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 *  ... STag       |                 TO (64 bits) ...
 * </pre>
 * Untagged buffer model, 18 bytes (RFC 5041 §4.3, Figure 4):
 * <pre>
 * |T|L| Resrv | DV|   RsvdULP[0:7]  |  RsvdULP[8:39] (32 bits) ...
 * |  QN (32)  |  MSN (32)  |  MO (32)
 * </pre>
 * Offsets below are from the start of the DDP header.
 */
public final class DdpHeader {

    public static final int TAGGED_LENGTH = 14;
    public static final int UNTAGGED_LENGTH = 18;

    /** DDP control byte fields (RFC 5041 §4.1). */
    public static final int T = 0x80;
    public static final int L = 0x40;
    public static final int RESERVED_MASK = 0x3C;
    public static final int DV_MASK = 0x03;
    /** RFC 5041 §4.1: DV MUST be 01b for this version of DDP. */
    public static final int VERSION = 1;

    static final int CONTROL = 0;
    static final int RDMAP_CONTROL = 1;
    static final int STAG = 2;
    static final int TO = 6;
    static final int INVALIDATE_STAG = 2;
    static final int QN = 6;
    static final int MSN = 10;
    static final int MO = 14;

    private MemorySegment segment;
    private long base;

    public DdpHeader wrap(MemorySegment segment, long offset) {
        this.segment = segment;
        this.base = offset;
        return this;
    }

    public MemorySegment segment() {
        return segment;
    }

    public long offset() {
        return base;
    }

    public int control() {
        return Wire.u8(segment, base + CONTROL);
    }

    public boolean tagged() {
        return (control() & T) != 0;
    }

    public boolean last() {
        return (control() & L) != 0;
    }

    public int ddpVersion() {
        return control() & DV_MASK;
    }

    /** RsvdULP[0..7], the RDMAP control byte. */
    public int rdmapControl() {
        return Wire.u8(segment, base + RDMAP_CONTROL);
    }

    public int opcodeCode() {
        return rdmapControl() & 0x0F;
    }

    public int length() {
        return headerLength(control());
    }

    // Tagged buffer model (RFC 5041 §4.2)

    public int stag() {
        return Wire.i32(segment, base + STAG);
    }

    public long to() {
        return Wire.i64(segment, base + TO);
    }

    // Untagged buffer model (RFC 5041 §4.3)

    /** RsvdULP[8..39]: the Invalidate STag for Send with Invalidate (RFC 5040 §4.3), else 0. */
    public int invalidateStag() {
        return Wire.i32(segment, base + INVALIDATE_STAG);
    }

    public int qn() {
        return Wire.i32(segment, base + QN);
    }

    public int msn() {
        return Wire.i32(segment, base + MSN);
    }

    public int mo() {
        return Wire.i32(segment, base + MO);
    }

    /** Header length implied by a DDP control byte's T bit. */
    public static int headerLength(int ddpControl) {
        return (ddpControl & T) != 0 ? TAGGED_LENGTH : UNTAGGED_LENGTH;
    }

    /** The DDP control byte: T, L, reserved 0 (RFC 5041 §4.1: MUST be sent as 0), DV = 01b. */
    public static int controlByte(boolean tagged, boolean last) {
        return (tagged ? T : 0) | (last ? L : 0) | VERSION;
    }

    /** Writes a tagged header (RFC 5041 §4.2) and returns its length. */
    public static int writeTagged(MemorySegment s, long off, boolean last, RdmapOpcode opcode, int stag, long to) {
        Wire.put8(s, off + CONTROL, controlByte(true, last));
        Wire.put8(s, off + RDMAP_CONTROL, opcode.controlByte());
        Wire.put32(s, off + STAG, stag);
        Wire.put64(s, off + TO, to);
        return TAGGED_LENGTH;
    }

    /** Writes an untagged header (RFC 5041 §4.3) and returns its length. */
    public static int writeUntagged(MemorySegment s, long off, boolean last, RdmapOpcode opcode,
                                    int invalidateStag, int qn, int msn, int mo) {
        Wire.put8(s, off + CONTROL, controlByte(false, last));
        Wire.put8(s, off + RDMAP_CONTROL, opcode.controlByte());
        Wire.put32(s, off + INVALIDATE_STAG, invalidateStag);
        Wire.put32(s, off + QN, qn);
        Wire.put32(s, off + MSN, msn);
        Wire.put32(s, off + MO, mo);
        return UNTAGGED_LENGTH;
    }
}
