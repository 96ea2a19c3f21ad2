package com.ibm.disni.util;

import java.nio.ByteBuffer;

/** A direct buffer from {@link MemoryAllocation} with its address. */
public class MemBuf {
    private final ByteBuffer buffer;
    private final long address;

    MemBuf(ByteBuffer buffer) {
        this.buffer = buffer;
        this.address = MemoryUtils.getAddress(buffer);
    }

    public final long address() {
        return address;
    }

    public final ByteBuffer getBuffer() {
        return buffer;
    }

    public final int size() {
        return buffer.capacity();
    }

    /** Returns the buffer to the allocator's pool for its size. */
    public void free() {
        buffer.clear();
        MemoryAllocation.getInstance().release(this);
    }
}
