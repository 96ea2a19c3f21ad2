package org.jwarp.engine.io;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.IdentityHashMap;
import java.util.function.LongSupplier;

/**
 * {@link SocketIo} over {@code SocketChannel}'s vectored reads and writes. NIO takes ByteBuffers,
 * so each segment gets views, made on first use and reused: piece {@code i} of a call uses view
 * {@code i} of its segment, so one segment may appear in every piece of one call. The views are
 * bounded ({@link #MAX_SEGMENTS}) and dropped whenever a region of the device is deregistered
 * ({@code deregistrations} changes), so that no view of a dead region outlives it.
 *
 * <p>Views of a piece of a {@link Staging} buffer are duplicates of that buffer, not of the segment:
 * the JDK's vectored calls allocate a session releaser per segment-backed buffer per call, not per
 * plain direct buffer.
 */
public final class NioSocketIo implements SocketIo {

    /** Segments whose views are kept; past that the working set is made again on use. */
    static final int MAX_SEGMENTS = 64;

    private final SocketChannel channel;
    private final LongSupplier deregistrations;
    private final IdentityHashMap<Object, ByteBuffer[]> views = new IdentityHashMap<>();
    private final ByteBuffer[] iov;
    private long seenDeregistrations;

    /**
     * @param capacity        the most pieces a call may have
     * @param deregistrations a count that changes whenever memory the views may cover is released
     */
    public NioSocketIo(SocketChannel channel, int capacity, LongSupplier deregistrations) {
        this.channel = channel;
        this.deregistrations = deregistrations;
        this.iov = new ByteBuffer[capacity];
        this.seenDeregistrations = deregistrations.getAsLong();
    }

    @Override
    public long write(IoVector v) throws IOException {
        int n = prepare(v);
        if (n == 0) {
            return 0;
        }
        // one buffer (every small message): the plain write costs less than the vectored call
        long w = n == 1 ? channel.write(iov[0]) : channel.write(iov, 0, n);
        release(n);
        v.advance(w);
        return w;
    }

    @Override
    public long read(IoVector v) throws IOException {
        int n = prepare(v);
        if (n == 0) {
            return 0;
        }
        long r = n == 1 ? channel.read(iov[0]) : channel.read(iov, 0, n);
        release(n);
        return r;
    }

    @Override
    public boolean canAddress(MemorySegment segment) {
        return segment.isNative() && segment.byteSize() <= Integer.MAX_VALUE;
    }

    @Override
    public String layer() {
        return "nio";
    }

    private int prepare(IoVector v) {
        long d = deregistrations.getAsLong();
        if (d != seenDeregistrations) {
            views.clear();
            seenDeregistrations = d;
        }
        int n = 0;
        for (int i = v.start(); i < v.end(); i++, n++) {
            ByteBuffer b = view(v.segment(i), v.buffer(i), n);
            int from = (int) v.offset(i);
            b.limit(from + (int) v.length(i)).position(from);
            iov[n] = b;
        }
        return n;
    }

    private void release(int n) {
        for (int i = 0; i < n; i++) {
            iov[i] = null;
        }
    }

    private ByteBuffer view(MemorySegment s, ByteBuffer origin, int slot) {
        Object key = origin != null ? origin : s;
        ByteBuffer[] v = views.get(key);
        if (v == null) {
            if (origin == null && !canAddress(s)) {
                throw new IllegalArgumentException("NIO cannot address " + s + ": heap memory or over 2 GiB");
            }
            if (views.size() >= MAX_SEGMENTS) {
                views.clear();
            }
            v = new ByteBuffer[iov.length];
            views.put(key, v);
        }
        ByteBuffer b = v[slot];
        if (b == null) {
            b = origin != null ? origin.duplicate() : s.asByteBuffer();
            v[slot] = b;
        }
        return b.clear();
    }
}
