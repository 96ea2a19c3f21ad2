package org.jwarp.wire.mpa;

import java.lang.foreign.MemorySegment;
import java.util.EnumSet;
import org.jwarp.wire.Wire;

/**
 * The enhanced connection-setup header of RFC 6581 §6 (Figure 3): the first four bytes of Private
 * Data when a frame has S=1 and Rev 2. PD_Length counts these four bytes (RFC 6581 §7).
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |A|B|           IRD             |C|D|          ORD              |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>A: peer-to-peer model, an RTR (ready-to-receive) message follows the Reply. B: the RTR may
 * be a zero-length Send. C: a zero-length RDMA Write. D: a zero-length RDMA Read. In a Request
 * B/C/D list what the initiator can send; in a Reply, what the responder chose. IRD and ORD are
 * the sender's inbound and outbound RDMA Read queue depths; {@link #NO_NEGOTIATION} (0x3FFF)
 * means "not negotiated here, the ULP handles it" (RFC 6581 §9.1).
 *
 * @param peerToPeer A
 * @param rtrSend B
 * @param ird IRD, 0..0x3FFF
 * @param rtrWrite C
 * @param rtrRead D
 * @param ord ORD, 0..0x3FFF
 */
public record MpaV2Header(boolean peerToPeer, boolean rtrSend, int ird, boolean rtrWrite,
        boolean rtrRead, int ord) {

    public static final int LENGTH = 4;
    public static final int IRD_OFFSET = 0;
    public static final int ORD_OFFSET = 2;
    /** Masks of the first 16-bit word. */
    public static final int PEER_TO_PEER = 0x8000;
    public static final int RTR_SEND = 0x4000;
    /** Masks of the second 16-bit word. */
    public static final int RTR_WRITE = 0x8000;
    public static final int RTR_READ = 0x4000;
    /** Mask of IRD and ORD in their words. */
    public static final int VALUE_MASK = 0x3FFF;
    /** RFC 6581 §9.1: IRD or ORD 0x3FFF means "no automatic negotiation, the ULP handles it". */
    public static final int NO_NEGOTIATION = 0x3FFF;

    public MpaV2Header {
        if (ird < 0 || ird > VALUE_MASK || ord < 0 || ord > VALUE_MASK) {
            throw new IllegalArgumentException("IRD " + ird + " / ORD " + ord + " outside 0..0x3FFF");
        }
    }

    /** Decodes the header at {@code offset} (four bytes must be there). */
    public static MpaV2Header read(MemorySegment s, long offset) {
        int w0 = Wire.u16(s, offset + IRD_OFFSET);
        int w1 = Wire.u16(s, offset + ORD_OFFSET);
        return new MpaV2Header((w0 & PEER_TO_PEER) != 0, (w0 & RTR_SEND) != 0, w0 & VALUE_MASK,
                (w1 & RTR_WRITE) != 0, (w1 & RTR_READ) != 0, w1 & VALUE_MASK);
    }

    /** Encodes this header at {@code offset}. */
    public void writeTo(MemorySegment s, long offset) {
        Wire.put16(s, offset + IRD_OFFSET,
                (peerToPeer ? PEER_TO_PEER : 0) | (rtrSend ? RTR_SEND : 0) | ird);
        Wire.put16(s, offset + ORD_OFFSET,
                (rtrWrite ? RTR_WRITE : 0) | (rtrRead ? RTR_READ : 0) | ord);
    }

    /**
     * The RTR options this header names. RFC 6581 §9.2: when A is 0, B, C and D carry no meaning
     * and the receiver ignores them, so the set is empty.
     */
    public EnumSet<RtrType> rtrTypes() {
        EnumSet<RtrType> set = EnumSet.noneOf(RtrType.class);
        if (peerToPeer) {
            if (rtrSend) {
                set.add(RtrType.SEND);
            }
            if (rtrWrite) {
                set.add(RtrType.WRITE);
            }
            if (rtrRead) {
                set.add(RtrType.READ);
            }
        }
        return set;
    }
}
