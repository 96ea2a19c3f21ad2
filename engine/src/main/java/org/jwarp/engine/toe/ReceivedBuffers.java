package org.jwarp.engine.toe;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;

/**
 * The anonymous buffers the engine filled for one {@link ToeSocket}, in arrival order: a ring that
 * the thread taking events appends to and the socket's reader copies out of, giving each buffer
 * back once every byte of it has been read (the refill). The count of buffers given back is what
 * the engine weighs the socket's share against ({@link HeldBuffers}); an engine that stopped
 * reading for the share asks to be rung once enough are back ({@link #ringWhenReturned}).
 */
final class ReceivedBuffers {

    private final AnonymousPool pool;
    /** Rings the engine's doorbell. */
    private final Runnable ringEngine;
    private final int[] buffer;
    private final int[] length;
    private final int mask;
    /** Attached buffers: written by the thread that takes events. */
    private volatile int tail;
    /** Read buffers: written by the reader. */
    private volatile int head;
    /** Bytes of the head buffer already read (reader). */
    private int offset;
    /** Buffers given back, cumulative (reader); the engine holds at most a share beyond it. */
    private volatile long returned;
    /**
     * Set by the engine when it stopped reading because the socket holds its share of buffers: the
     * {@link #returned} count at which half the share is free again, when the reader rings;
     * {@link Long#MAX_VALUE} while the engine reads.
     */
    private volatile long resumeAt = Long.MAX_VALUE;

    ReceivedBuffers(AnonymousPool pool, int buffersPerSocket, Runnable ringEngine) {
        this.pool = pool;
        this.ringEngine = ringEngine;
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
            giveBack(id);
        }
        return n;
    }

    /** The refill: a read buffer goes back to the pool; the engine is rung if it waits for one. */
    private void giveBack(int id) {
        long n = returned + 1;
        returned = n;
        boolean poolWasEmpty = pool.give(id);
        if (poolWasEmpty | n >= resumeAt) {
            resumeAt = Long.MAX_VALUE;
            ringEngine.run();
        }
    }

    /** {@return the buffers the reader gave back so far} */
    long returned() {
        return returned;
    }

    /**
     * Engine thread, when the socket holds its share of buffers: asks the reader to ring once it
     * has given back {@code at} buffers in all. Returns whether it already has: reading then goes
     * on at once, and no ring is asked for.
     */
    boolean ringWhenReturned(long at) {
        resumeAt = at;                              // before the second look (Dekker with giveBack)
        if (returned < at) {
            return false;
        }
        resumeAt = Long.MAX_VALUE;
        return true;
    }

    /** Reader: gives back every attached buffer, read or not (the socket closed). */
    void dropAll() {
        for (int h = head; h != tail; h++) {
            giveBack(buffer[h & mask]);
            head = h + 1;
        }
        offset = 0;
    }
}
