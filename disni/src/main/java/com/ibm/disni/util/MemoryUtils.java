package com.ibm.disni.util;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/** Native addresses of direct buffers, through the FFM API (no sun.nio.ch, no --add-exports). */
public class MemoryUtils {
    public MemoryUtils() {
    }

    /**
     * The address of the buffer's first byte (index 0, whatever its position), as DiSNI returns it;
     * 0 for a heap buffer, which has no stable address.
     */
    public static long getAddress(ByteBuffer buffer) {
        if (!buffer.isDirect()) {
            return 0;
        }
        return MemorySegment.ofBuffer(buffer).address() - buffer.position();
    }
}
