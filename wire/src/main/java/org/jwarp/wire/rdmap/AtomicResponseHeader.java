package org.jwarp.wire.rdmap;

import java.lang.foreign.MemorySegment;
import org.jwarp.wire.Wire;

/**
 * The Atomic Response header (RFC 7306 §4.4, Figure 6), after an untagged DDP header on QN 3:
 * the Original Request Identifier (4 bytes) and the Original Remote Data Value (8 bytes, the value
 * before the operation). The RFC's prose calls this header 32 bytes; its figure and Appendix A.2
 * show 12, which is what is implemented (see reference §10).
 */
public final class AtomicResponseHeader {

    public static final int LENGTH = 12;
    static final int REQUEST_ID = 0;
    static final int ORIGINAL_VALUE = 4;

    private AtomicResponseHeader() {
    }

    public static int requestId(MemorySegment s, long off) {
        return Wire.i32(s, off + REQUEST_ID);
    }

    public static long originalValue(MemorySegment s, long off) {
        return Wire.i64(s, off + ORIGINAL_VALUE);
    }

    public static void write(MemorySegment s, long off, int requestId, long originalValue) {
        Wire.put32(s, off + REQUEST_ID, requestId);
        Wire.put64(s, off + ORIGINAL_VALUE, originalValue);
    }
}
