package org.jwarp.wire.rdmap;

import java.lang.foreign.MemorySegment;
import org.jwarp.wire.Wire;

/**
 * The Immediate Data header (RFC 7306 §4.2, Figure 4): eight bytes of immediate data directly
 * after the untagged DDP header, and nothing else; a receiver checks that exactly eight arrived.
 */
public final class ImmediateDataHeader {

    public static final int LENGTH = 8;

    private ImmediateDataHeader() {
    }

    public static long immediateData(MemorySegment s, long off) {
        return Wire.i64(s, off);
    }

    public static void write(MemorySegment s, long off, long immediateData) {
        Wire.put64(s, off, immediateData);
    }
}
