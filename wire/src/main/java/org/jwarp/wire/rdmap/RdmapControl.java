package org.jwarp.wire.rdmap;

/**
 * The RDMAP control byte, carried in the first byte of DDP's RsvdULP field (RFC 5040 §4.1):
 *
 * <pre>
 *   0   1   2   3   4   5   6   7
 * +---+---+---+---+---+---+---+---+
 * |  RV   | Rsvd  |    Opcode     |
 * +---+---+---+---+---+---+---+---+
 * </pre>
 */
public final class RdmapControl {

    /** RV = 01b is the IETF RDMAP version; 00b was the RDMA Consortium's (RFC 5040 §4.1). */
    public static final int RV_IETF = 1;
    public static final int RV_MASK = 0xC0;
    public static final int RESERVED_MASK = 0x30;
    public static final int OPCODE_MASK = 0x0F;

    private RdmapControl() {
    }

    public static int version(int controlByte) {
        return (controlByte & RV_MASK) >>> 6;
    }

    public static int opcode(int controlByte) {
        return controlByte & OPCODE_MASK;
    }
}
