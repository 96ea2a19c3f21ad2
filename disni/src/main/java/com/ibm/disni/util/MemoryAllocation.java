package com.ibm.disni.util;

import java.nio.ByteBuffer;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Map;

/** Direct buffers, pooled by size: a freed {@link MemBuf} is handed out again for the same size. */
public class MemoryAllocation {
    private static MemoryAllocation instance;
    private final Map<Integer, ArrayDeque<MemBuf>> pools = new HashMap<>();

    MemoryAllocation() {
    }

    public static synchronized MemoryAllocation getInstance() {
        if (instance == null) {
            instance = new MemoryAllocation();
        }
        return instance;
    }

    public MemBuf allocate(int size) {
        synchronized (pools) {
            ArrayDeque<MemBuf> pool = pools.get(size);
            if (pool != null && !pool.isEmpty()) {
                return pool.poll();
            }
        }
        return new MemBuf(ByteBuffer.allocateDirect(size));
    }

    void release(MemBuf buf) {
        synchronized (pools) {
            pools.computeIfAbsent(buf.size(), k -> new ArrayDeque<>()).push(buf);
        }
    }
}
