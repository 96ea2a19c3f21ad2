package org.jwarp.engine.toe;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.util.function.IntConsumer;

/**
 * The anonymous buffers the engine filled for one {@link ToeSocket}, in arrival order: a ring that
 * the thread taking events appends to and the socket's reader copies out of, giving each buffer
 * back once every byte of it has been read.
 */
final class ReceivedBuffers {

    private final AnonymousPool pool;
    /** Where a used-up buffer goes (the socket's refill). */
    private final IntConsumer giveBack;
    private final int[] buffer;
    private final int[] length;
    private final int mask;
    /** Attached buffers: written by the thread that takes events. */
    private volatile int tail;
    /** Read buffers: written by the reader. */
    private volatile int head;
    /** Bytes of the head buffer already read (reader). */
    private int offset;

    ReceivedBuffers(AnonymousPool pool, int buffersPerSocket, IntConsumer giveBack) {
        this.pool = pool;
        this.giveBack = giveBack;
        int n = Integer.highestOneBit(Math.max(1, buffersPerSocket - 1)) << 1;
        this.buffer = new int[n];
        this.length = new int[n];
        this.mask = n - 1;
    }

    /** The thread that takes events: {@code bytes} arrived in anonymous buffer {@code id}. */
    void attach(int id, int bytes) {
        int t = tail;
        buffer[t & mask] = id;
        length[t & mask] = bytes;
        tail = t + 1;
    }

    boolean isEmpty() {
        return head == tail;
    }

    /** {@return the bytes attached and not yet read} */
    int bytes() {
        long n = -offset;
        for (int h = head, t = tail; h != t; h++) {
            n += length[h & mask];
        }
        return (int) Math.min(Integer.MAX_VALUE, Math.max(0, n));
    }

    /**
     * Reader: copies at most {@code len} bytes of the head buffer into {@code b} at {@code off}, or
     * into {@code dst} if it is not null; gives the buffer back once it is read to its end. The
     * ring must not be empty.
     *
     * @return the bytes copied
     */
    int copyOut(byte[] b, int off, int len, ByteBuffer dst) {
        int h = head;
        int id = buffer[h & mask];
        int bytes = length[h & mask];
        int n = Math.min(len, bytes - offset);
        long at = (long) id * pool.bufferBytes() + offset;
        if (dst == null) {
            MemorySegment.copy(pool.memory(), ValueLayout.JAVA_BYTE, at, b, off, n);
        } else if (dst.hasArray()) {
            MemorySegment.copy(pool.memory(), ValueLayout.JAVA_BYTE, at, dst.array(),
                    dst.arrayOffset() + dst.position(), n);
            dst.position(dst.position() + n);
        } else {
            MemorySegment.copy(pool.memory(), at, MemorySegment.ofBuffer(dst), 0, n);
            dst.position(dst.position() + n);
        }
        offset += n;
        if (offset == bytes) {
            offset = 0;
            head = h + 1;
            giveBack.accept(id);
        }
        return n;
    }

    /** Reader: gives back every attached buffer, read or not (the socket closed). */
    void dropAll() {
        for (int h = head; h != tail; h++) {
            giveBack.accept(buffer[h & mask]);
            head = h + 1;
        }
        offset = 0;
    }
}
