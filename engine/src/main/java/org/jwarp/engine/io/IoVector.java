package org.jwarp.engine.io;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.Arrays;

/**
 * The memory pieces of one vectored socket call — what {@code struct iovec[]} is to
 * {@code writev}/{@code readv} — as segments, offsets and lengths, so that each {@link SocketIo}
 * layer can turn them into what its calls take. Pieces that continue one another in the same segment
 * are merged as they are added. A piece of a {@link Staging} buffer keeps the buffer too, for the
 * layers that take ByteBuffers. After a call moved {@code n} bytes, {@link #advance(long)} drops what
 * went through, so that a partial write resumes where the socket stopped. Fixed capacity; owned by
 * one thread; allocates nothing after construction.
 */
public final class IoVector {

    /** Pieces the arrays hold at first; they double up to the capacity when a call needs more. */
    static final int FIRST_PIECES = 4;

    private final int capacity;
    private MemorySegment[] segments;
    private ByteBuffer[] buffers;
    private long[] offsets;
    private long[] lengths;
    private int start;
    private int end;

    /**
     * @param capacity the most pieces one call may carry; the arrays grow to it only as calls need
     *                 them, so an idle connection's vectors cost a few pieces
     */
    public IoVector(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("an I/O vector needs room for at least one piece: " + capacity);
        }
        this.capacity = capacity;
        int first = Math.min(capacity, FIRST_PIECES);
        segments = new MemorySegment[first];
        buffers = new ByteBuffer[first];
        offsets = new long[first];
        lengths = new long[first];
    }

    public int capacity() {
        return capacity;
    }

    /** Index of the first piece not yet wholly transferred. */
    public int start() {
        return start;
    }

    /** Index after the last piece. */
    public int end() {
        return end;
    }

    /** Pieces still to transfer. */
    public int pieces() {
        return end - start;
    }

    public boolean isEmpty() {
        return start == end;
    }

    /** Room for {@code n} more pieces (without merging). */
    public boolean hasRoom(int n) {
        return end + n <= capacity;
    }

    public MemorySegment segment(int i) {
        return segments[i];
    }

    /** The direct buffer piece {@code i} lies in, or null (a piece of plain memory). */
    public ByteBuffer buffer(int i) {
        return buffers[i];
    }

    public long offset(int i) {
        return offsets[i];
    }

    public long length(int i) {
        return lengths[i];
    }

    /** Whether every piece still to transfer lies in a {@link Staging} buffer (none in application memory). */
    public boolean onlyStaging() {
        for (int i = start; i < end; i++) {
            if (buffers[i] == null) {
                return false;
            }
        }
        return true;
    }

    /** Bytes still to transfer. */
    public long remaining() {
        long n = 0;
        for (int i = start; i < end; i++) {
            n += lengths[i];
        }
        return n;
    }

    /** Forgets every piece (and the references to their memory). */
    public void clear() {
        for (int i = 0; i < end; i++) {
            segments[i] = null;
            buffers[i] = null;
        }
        start = 0;
        end = 0;
    }

    /**
     * Appends {@code length} bytes of {@code segment} from {@code offset}, merged into the last
     * piece when they continue it.
     *
     * @throws IllegalStateException if a new piece is needed and the vector is full
     */
    public void add(MemorySegment segment, long offset, long length) {
        add(segment, null, offset, length);
    }

    /** As {@link #add(MemorySegment, long, long)}, for a piece of a staging buffer. */
    public void add(Staging staging, long offset, long length) {
        add(staging.segment(), staging.buffer(), offset, length);
    }

    private void add(MemorySegment segment, ByteBuffer buffer, long offset, long length) {
        if (length <= 0) {
            return;
        }
        int last = end - 1;
        if (last >= start && segments[last] == segment && offsets[last] + lengths[last] == offset) {
            lengths[last] += length;
            return;
        }
        if (end == segments.length) {
            grow();
        }
        segments[end] = segment;
        buffers[end] = buffer;
        offsets[end] = offset;
        lengths[end] = length;
        end++;
    }

    /**
     * Room for one more piece: the arrays double, up to the capacity.
     *
     * @throws IllegalStateException if the vector holds its capacity already
     */
    private void grow() {
        if (segments.length == capacity) {
            throw new IllegalStateException("I/O vector full (" + capacity + " pieces)");
        }
        int n = Math.min(capacity, segments.length * 2);
        segments = Arrays.copyOf(segments, n);
        buffers = Arrays.copyOf(buffers, n);
        offsets = Arrays.copyOf(offsets, n);
        lengths = Arrays.copyOf(lengths, n);
    }

    /** The first {@code n} bytes went through: whole pieces are dropped, a partly moved one shrinks. */
    public void advance(long n) {
        while (n > 0 && start < end) {
            long len = lengths[start];
            if (n < len) {
                offsets[start] += n;
                lengths[start] = len - n;
                return;
            }
            n -= len;
            segments[start] = null;
            buffers[start] = null;
            start++;
        }
        if (start == end) {
            start = 0;
            end = 0;
        }
    }
}
