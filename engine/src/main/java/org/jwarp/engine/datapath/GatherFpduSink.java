package org.jwarp.engine.datapath;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import org.jwarp.engine.io.IoCompletion;
import org.jwarp.engine.io.IoVector;
import org.jwarp.engine.io.SocketIo;
import org.jwarp.engine.io.Staging;
import org.jwarp.engine.io.StagingPool;
import org.jwarp.stack.FpduSink;
import org.jwarp.wire.fpdu.FpduEncoder;

/**
 * The engine's transmit sink: FPDUs go to the socket in one gathering write, their headers and
 * trailers from a staging buffer and large payloads straight from registered memory — the copy
 * a NIC's DMA engine would not make either. Payloads under {@link #ZERO_COPY_FROM} bytes (and every
 * FPDU on a stream with markers) are framed whole into the staging buffer: below that size a copy
 * costs less than an extra I/O vector entry, and markers must be interleaved with the payload.
 * Memory the connection's {@link SocketIo} layer cannot address (heap arrays) is copied too.
 *
 * <p>Because it references application memory until the socket has taken it, the sink's
 * {@link #completionBarrier()} counts wire bytes framed, and the stream completes a Send or Write
 * only once {@link #written()} has passed it.
 *
 * <p>The staging buffer is borrowed from the engine thread's {@link StagingPool} when the first FPDU
 * is framed and given back once the socket has taken everything: an idle connection holds none.
 */
public final class GatherFpduSink implements FpduSink {

    public static final int ZERO_COPY_FROM = 8192;
    static final int MAX_IOV = 64;
    private static final int STAGING = StagingPool.SIZE;

    private final FpduEncoder encoder = new FpduEncoder();
    private final IoVector iov = new IoVector(MAX_IOV);
    private StagingPool pool;
    private Staging staging;
    private SocketIo io;
    private int stagingEnd;
    private long framed;
    private long written;

    /** The pool of the engine thread that runs this connection now (set before each transmit). */
    void pool(StagingPool pool) {
        this.pool = pool;
    }

    /** Whether a staging buffer is held (bytes framed and not yet written). */
    boolean holdsStaging() {
        return staging != null;
    }

    /** The connection's socket calls from now on (it moved to another engine thread). */
    void io(SocketIo next) {
        io = next;
    }

    GatherFpduSink start(SocketIo io, boolean crc, boolean markers, long streamPosition) {
        this.io = io;
        encoder.start(crc, markers, streamPosition);
        reset();
        framed = 0;
        written = 0;
        return this;
    }

    @Override
    public boolean hasRoom(int ulpduLength) {
        // conservative: room to frame the whole FPDU in staging, whichever way it goes
        return iov.hasRoom(3) && stagingEnd + encoder.encodedLength(ulpduLength) <= STAGING;
    }

    @Override
    public void frame(MemorySegment header, long headerOffset, int headerLength,
                      MemorySegment payload, long payloadOffset, int payloadLength) {
        if (staging == null) {
            staging = pool.borrow();
        }
        MemorySegment staging = this.staging.segment();
        if (payloadLength < ZERO_COPY_FROM || encoder.markersEnabled() || !io.canAddress(payload)) {
            appendStaging(encoder.encode(staging, stagingEnd, header, headerOffset, headerLength,
                    payload, payloadOffset, payloadLength));
            return;
        }
        int prefix = encoder.encodePrefix(staging, stagingEnd, header, headerOffset, headerLength, payloadLength);
        try {
            // the CRC reads the payload first: memory freed under the region fails here, with
            // nothing of this FPDU taken (FpduSink#frame); without CRC, the check says it
            if (!payload.scope().isAlive()) {
                throw new IllegalStateException("the registered memory was freed (its arena is closed)");
            }
            encoder.payload(payload, payloadOffset, payloadLength);
        } catch (IllegalStateException e) {
            encoder.cancelPrefix(prefix);
            throw e;
        }
        appendStaging(prefix);
        iov.add(payload, payloadOffset, payloadLength);
        framed += payloadLength;
        appendStaging(encoder.encodeTrailer(staging, stagingEnd));
    }

    /** Adds the last {@code n} bytes framed into staging to the I/O vector (merged when adjacent). */
    private void appendStaging(int n) {
        iov.add(staging, stagingEnd, n);
        stagingEnd += n;
        framed += n;
    }

    @Override
    public long completionBarrier() {
        return framed;
    }

    /** Wire bytes handed to the socket so far (compare with {@link #completionBarrier()}). */
    long written() {
        return written;
    }

    /** Wire bytes framed and not yet written. */
    long pending() {
        return framed - written;
    }

    /**
     * One gathering write of what is pending; returns the bytes the socket took.
     *
     * @throws IOException also if the memory of a payload framed earlier was freed since (its arena
     *                     closed while the bytes waited for room in the socket): a layer that writes
     *                     from the address would send freed memory, NIO's refuses it
     */
    long drain() throws IOException {
        if (iov.isEmpty()) {
            return 0;
        }
        checkNoneFreed();
        long n;
        try {
            n = io.write(iov);
        } catch (IllegalStateException e) {
            if (anyFreed()) {
                throw freed(e);         // freed during the call (NIO's buffer views refuse it)
            }
            throw e;
        }
        return taken(n);
    }

    /** The socket took {@code n} more bytes; the staging buffer goes back once it took everything. */
    private long taken(long n) {
        written += n;
        if (iov.isEmpty()) {
            reset();
        }
        return n;
    }

    /**
     * As {@link #drain}, queued with the engine thread's other writes where the layer batches them
     * ({@link SocketIo#writeLater}): true if queued, and then {@code done} gets the call's result,
     * to hand to {@link #drained}; false if nothing is pending or the layer writes at once.
     */
    boolean drainLater(IoCompletion done) throws IOException {
        if (iov.isEmpty()) {
            return false;
        }
        checkNoneFreed();
        return io.writeLater(iov, done);
    }

    /** The result of a write {@link #drainLater} queued: returns the bytes the socket took, as {@link #drain}. */
    long drained(long result) throws IOException {
        return taken(io.written(iov, result));
    }

    private void checkNoneFreed() throws IOException {
        if (anyFreed()) {
            throw freed(null);
        }
    }

    /** Whether a payload piece (outside staging) had its memory freed since it was framed. */
    private boolean anyFreed() {
        for (int i = iov.start(); i < iov.end(); i++) {
            if (iov.buffer(i) == null && !iov.segment(i).scope().isAlive()) {
                return true;
            }
        }
        return false;
    }

    private static IOException freed(IllegalStateException cause) {
        return new IOException("the registered memory of a pending write was freed (its arena closed) before the"
                + " socket took it", cause);
    }

    private void reset() {
        iov.clear();
        stagingEnd = 0;
        if (staging != null) {
            pool.give(staging);
            staging = null;
        }
    }
}
