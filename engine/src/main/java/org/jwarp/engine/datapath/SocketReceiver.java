package org.jwarp.engine.datapath;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import org.jwarp.engine.io.IoVector;
import org.jwarp.engine.io.SocketIo;
import org.jwarp.engine.io.Staging;
import org.jwarp.engine.io.StagingPool;
import org.jwarp.engine.provider.JwarpConfig;
import org.jwarp.stack.DirectPlacement;
import org.jwarp.stack.RdmapStream;

/**
 * The receive side's socket reads in full operation — the NIC's receive DMA. Small FPDUs are
 * batched through a staging buffer: one read system call takes many of them, and the stream copies
 * their payload into place. Once the stream is inside the payload of a segment that passed its
 * placement checks and has at least {@link #DIRECT_FROM} bytes still to come, the rest of that
 * payload is read straight from the socket into the target — the region at the STag and tagged
 * offset, or the posted receive's buffers, scattered across its entries — and the stream is told
 * ({@link RdmapStream#placedDirectly}), so that it computes the CRC over the placed bytes in
 * order: header, payload, pad.
 *
 * <p>The same scattering read ends in the staging buffer, limited to the FPDU's trailer (a
 * Write's held-back last byte, the pad, the CRC) plus {@link #LOOKAHEAD} bytes: the next FPDU's
 * header comes in the same system call, so that a stream of large segments costs one read per
 * segment and copies only those lookahead bytes. While the peer's messages are large
 * ({@link RdmapStream#recentSegmentPayload()}), a read between segments is limited to the
 * lookahead as well, so that the next payload is not swallowed by staging; a message of small
 * segments lifts the limit, and small frames are batched again.
 *
 * <p>Which segments: those whose payload is at least {@link #DIRECT_FROM} bytes. A direct read
 * costs a system call per segment; the staging path costs a copy of bytes still in cache but
 * shares one system call among every FPDU a read takes. Measured on this machine's loopback
 * ({@code RxPathBench}: the receiving engine thread's CPU time per KiB, CRC on, medians of 5),
 * reading every segment straight into the region costs 2.9x the staging path's CPU at 4 KiB
 * segments, 1.5x at 8 KiB, 1.2x at 16 KiB, 1.03x at 24 KiB, 0.98x at 32 KiB and 0.93x at 64 KiB:
 * about 1 µs more per read system call against about 15 ns per KiB not copied. Hence 32 KiB —
 * on loopback (MULPDU just under 64 KiB) every segment of a large message qualifies, on an
 * Ethernet MTU of 1500 none does, and the copy is the cheaper path there. Streams with markers (RFC 5044 §4.3) stay on the staging path: a marker every 512
 * bytes would cut each direct read short. Regions that are not native memory (heap arrays) or
 * larger than a ByteBuffer can address are filled through the staging buffer as well.
 *
 * <p>Owned by the connection's engine thread; the calls go through the connection's
 * {@link SocketIo} layer. The steady state allocates nothing here.
 */
public final class SocketReceiver {

    /** Payload bytes from which a segment's rest is read straight into its target, unless the device says otherwise. */
    public static final int DIRECT_FROM = (int) JwarpConfig.DEFAULT_RX_DIRECT_FROM;
    /** Bytes read into staging after a directly placed payload: the next FPDU's headers. */
    public static final int LOOKAHEAD = 256;
    private static final int STAGING = StagingPool.SIZE;

    private IoVector iov = new IoVector(1);
    private SocketIo io;
    private long directFrom = Long.MAX_VALUE;

    /**
     * Enters full operation. {@code maxPieces}: scatter/gather entries a receive may have;
     * {@code directFrom}: the threshold ({@link Long#MAX_VALUE}: never direct).
     */
    /** The connection's socket calls from now on (it moved to another engine thread). */
    void io(SocketIo next) {
        io = next;
    }

    void start(SocketIo io, int maxPieces, boolean markersRx, long directFrom) {
        this.io = io;
        this.iov = new IoVector(maxPieces + 1);
        this.directFrom = markersRx ? Long.MAX_VALUE : Math.max(1, directFrom);
    }

    /**
     * One read for {@code stream}: straight into the current segment's target if that is worth it,
     * else into {@code staging} (the engine thread's: the stream takes every byte before this
     * returns); what arrives is handed to the stream. Returns the bytes read, or -1 at end of stream.
     */
    long read(RdmapStream stream, Staging staging) throws IOException {
        MemorySegment stagingSegment = staging.segment();
        iov.clear();
        if (directFrom != Long.MAX_VALUE) {
            DirectPlacement p = stream.directPlacement();
            if (p.length() > 0 && p.segmentPayload() >= directFrom && p.pieces() < iov.capacity() && prepare(p)) {
                iov.add(staging, 0, Math.min(STAGING, (long) p.trailer() + LOOKAHEAD));
                long n;
                try {
                    n = io.read(iov);
                } catch (IllegalStateException e) {
                    // NIO's buffer views refuse memory whose arena was closed since the stream
                    // offered it, before reading anything: read nothing now; the next read goes
                    // through staging (the stream offers no freed memory), and the stream finds the
                    // target gone and answers with a Terminate
                    if (!anyFreed(p)) {
                        throw e;
                    }
                    return 0;
                }
                if (n > 0) {
                    long placed = Math.min(n, p.length());
                    stream.placedDirectly(placed);
                    if (n > placed) {
                        stream.receive(stagingSegment, 0, n - placed);
                    }
                }
                return n;
            }
            iov.clear();
        }
        // between the segments of large messages: take the next header, not the next payload
        boolean headerOnly = stream.recentSegmentPayload() >= directFrom && !stream.insidePayload();
        iov.add(staging, 0, headerOnly ? LOOKAHEAD : STAGING);
        long n = io.read(iov);
        if (n > 0) {
            stream.receive(stagingSegment, 0, n);
        }
        return n;
    }

    private static boolean anyFreed(DirectPlacement p) {
        for (int i = 0; i < p.pieces(); i++) {
            if (!p.segment(i).scope().isAlive()) {
                return true;
            }
        }
        return false;
    }

    /** Puts one piece per target into the vector; false if a piece cannot be read into directly. */
    private boolean prepare(DirectPlacement p) {
        for (int i = 0; i < p.pieces(); i++) {
            MemorySegment s = p.segment(i);
            if (!io.canAddress(s)) {
                return false;
            }
            iov.add(s, p.offset(i), p.length(i));
        }
        return true;
    }
}
