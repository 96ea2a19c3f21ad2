package org.jwarp.wire.rdmap;

import java.lang.foreign.MemorySegment;
import org.jwarp.wire.Wire;

/**
 * The Atomic Request header (RFC 7306 §4.3, Figure 5), after an untagged DDP header on QN 1:
 *
 * <pre>
 * off  size  field
 *  0    4    reserved (28 bits) | AOpCode (4 bits): 0 FetchAdd, 2 CmpSwap
 *  4    4    Request Identifier (echoed in the Atomic Response)
 *  8    4    Remote STag
 * 12    8    Remote Tagged Offset (8-byte aligned)
 * 20    8    Add or Swap Data
 * 28    8    Add or Swap Mask
 * 36    8    Compare Data
 * 44    8    Compare Mask
 * </pre>
 */
public final class AtomicRequestHeader {

    public static final int LENGTH = 52;
    public static final int AOPCODE_FETCH_ADD = 0x0;
    public static final int AOPCODE_COMPARE_SWAP = 0x2;

    static final int AOPCODE = 0;
    static final int REQUEST_ID = 4;
    static final int REMOTE_STAG = 8;
    static final int REMOTE_TO = 12;
    static final int ADD_SWAP_DATA = 20;
    static final int ADD_SWAP_MASK = 28;
    static final int COMPARE_DATA = 36;
    static final int COMPARE_MASK = 44;

    private MemorySegment segment;
    private long base;

    public AtomicRequestHeader wrap(MemorySegment segment, long offset) {
        this.segment = segment;
        this.base = offset;
        return this;
    }

    public int atomicOpcode() {
        return Wire.i32(segment, base + AOPCODE) & 0xF;
    }

    public int requestId() {
        return Wire.i32(segment, base + REQUEST_ID);
    }

    public int remoteStag() {
        return Wire.i32(segment, base + REMOTE_STAG);
    }

    public long remoteTo() {
        return Wire.i64(segment, base + REMOTE_TO);
    }

    public long addOrSwapData() {
        return Wire.i64(segment, base + ADD_SWAP_DATA);
    }

    public long addOrSwapMask() {
        return Wire.i64(segment, base + ADD_SWAP_MASK);
    }

    public long compareData() {
        return Wire.i64(segment, base + COMPARE_DATA);
    }

    public long compareMask() {
        return Wire.i64(segment, base + COMPARE_MASK);
    }

    public static void write(MemorySegment s, long off, int atomicOpcode, int requestId, int remoteStag,
                             long remoteTo, long addOrSwapData, long addOrSwapMask, long compareData,
                             long compareMask) {
        Wire.put32(s, off + AOPCODE, atomicOpcode & 0xF);
        Wire.put32(s, off + REQUEST_ID, requestId);
        Wire.put32(s, off + REMOTE_STAG, remoteStag);
        Wire.put64(s, off + REMOTE_TO, remoteTo);
        Wire.put64(s, off + ADD_SWAP_DATA, addOrSwapData);
        Wire.put64(s, off + ADD_SWAP_MASK, addOrSwapMask);
        Wire.put64(s, off + COMPARE_DATA, compareData);
        Wire.put64(s, off + COMPARE_MASK, compareMask);
    }
}
