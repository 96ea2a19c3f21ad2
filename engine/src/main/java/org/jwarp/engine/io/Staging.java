package org.jwarp.engine.io;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;

/**
 * A staging buffer: direct memory for FPDUs framed before they are written, or bytes read before
 * the stream takes them, as both a ByteBuffer (for the NIO layer, which then needs no per-call
 * session bookkeeping) and the segment over it (for framing and system calls).
 */
public record Staging(ByteBuffer buffer, MemorySegment segment) {

    public static Staging allocate(int bytes) {
        ByteBuffer b = ByteBuffer.allocateDirect(bytes);
        return new Staging(b, MemorySegment.ofBuffer(b));
    }

    public int capacity() {
        return buffer.capacity();
    }
}
