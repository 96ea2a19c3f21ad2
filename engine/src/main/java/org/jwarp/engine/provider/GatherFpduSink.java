package org.jwarp.engine.provider;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.nio.channels.GatheringByteChannel;
import org.jwarp.stack.FpduSink;
import org.jwarp.stack.StagTable;
import org.jwarp.wire.fpdu.FpduEncoder;

/**
 * The engine's transmit sink: FPDUs go to the socket in one gathering write, their headers and
 * trailers from a staging buffer and large payloads straight from registered memory — the copy
 * a NIC's DMA engine would not make either. Payloads under {@link #ZERO_COPY_FROM} bytes (and every
 * FPDU on a stream with markers) are framed whole into the staging buffer: below that size a copy
 * costs less than an extra I/O vector entry, and markers must be interleaved with the payload.
 *
 * <p>Because it references application memory until the socket has taken it, the sink's
 * {@link #completionBarrier()} counts wire bytes framed, and the stream completes a Send or Write
 * only once {@link #written()} has passed it. Views of a region are made once and reused.
 */
final class GatherFpduSink implements FpduSink {

    static final int ZERO_COPY_FROM = 8192;
    private static final int MAX_IOV = 64;
    private static final int VIEWS_PER_REGION = MAX_IOV / 2;
    private static final int STAGING = 256 * 1024;

    private final FpduEncoder encoder = new FpduEncoder();
    private final ByteBuffer staging = ByteBuffer.allocateDirect(STAGING);
    private final MemorySegment stagingSegment = MemorySegment.ofBuffer(staging);
    private final ByteBuffer[] stagingViews = new ByteBuffer[MAX_IOV];
    private final ByteBuffer[] iov = new ByteBuffer[MAX_IOV];
    private final RegionViews regionViews;
    private final MemorySegment[] batchRegions = new MemorySegment[MAX_IOV];
    private final int[] batchUses = new int[MAX_IOV];
    private int batchRegionCount;
    private int iovCount;
    private int iovStart;
    private int stagingEnd;
    private boolean lastIsStaging;
    private long framed;
    private long written;

    GatherFpduSink(StagTable stags) {
        this.regionViews = new RegionViews(stags, VIEWS_PER_REGION);
        for (int i = 0; i < MAX_IOV; i++) {
            stagingViews[i] = staging.duplicate();
        }
    }

    /** The staging buffer, for NUMA placement. */
    MemorySegment stagingSegment() {
        return stagingSegment;
    }

    GatherFpduSink start(boolean crc, boolean markers, long streamPosition) {
        encoder.start(crc, markers, streamPosition);
        reset();
        framed = 0;
        written = 0;
        return this;
    }

    @Override
    public boolean hasRoom(int ulpduLength) {
        // conservative: room to frame the whole FPDU in staging, whichever way it goes
        return iovCount <= MAX_IOV - 3 && stagingEnd + encoder.encodedLength(ulpduLength) <= STAGING;
    }

    @Override
    public void frame(MemorySegment header, long headerOffset, int headerLength,
                      MemorySegment payload, long payloadOffset, int payloadLength) {
        ByteBuffer view = payloadLength >= ZERO_COPY_FROM && !encoder.markersEnabled() ? viewOf(payload) : null;
        if (view == null) {
            int n = encoder.encode(stagingSegment, stagingEnd, header, headerOffset, headerLength,
                    payload, payloadOffset, payloadLength);
            appendStaging(n);
            return;
        }
        appendStaging(encoder.encodePrefix(stagingSegment, stagingEnd, header, headerOffset, headerLength,
                payloadLength));
        view.clear().limit((int) (payloadOffset + payloadLength)).position((int) payloadOffset);
        iov[iovCount++] = view;
        lastIsStaging = false;
        framed += payloadLength;
        encoder.payload(payload, payloadOffset, payloadLength);
        appendStaging(encoder.encodeTrailer(stagingSegment, stagingEnd));
    }

    /** Adds the last {@code n} bytes framed into staging to the I/O vector (merging when adjacent). */
    private void appendStaging(int n) {
        if (lastIsStaging) {
            ByteBuffer last = iov[iovCount - 1];
            last.limit(last.limit() + n);
        } else {
            ByteBuffer v = stagingViews[iovCount];
            v.clear().limit(stagingEnd + n).position(stagingEnd);
            iov[iovCount++] = v;
            lastIsStaging = true;
        }
        stagingEnd += n;
        framed += n;
    }

    /**
     * A view of a registered region for this batch, or null (then the payload is copied): the
     * memory must be native and addressable by a ByteBuffer, and each I/O vector entry needs a
     * view of its own, {@link #VIEWS_PER_REGION} per region and batch.
     */
    private ByteBuffer viewOf(MemorySegment region) {
        ByteBuffer[] views = regionViews.of(region);
        if (views == null) {
            return null;
        }
        int k = 0;
        while (k < batchRegionCount && batchRegions[k] != region) {
            k++;
        }
        if (k == batchRegionCount) {
            batchRegions[k] = region;
            batchUses[k] = 0;
            batchRegionCount++;
        }
        if (batchUses[k] == VIEWS_PER_REGION) {
            return null;
        }
        return views[batchUses[k]++];
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

    /** One gathering write of what is pending; returns the bytes the socket took. */
    long drain(GatheringByteChannel channel) throws IOException {
        if (iovStart == iovCount) {
            return 0;
        }
        // one buffer (every small message): a plain write, cheaper than the vectored call
        long n = iovCount - iovStart == 1 ? ((java.nio.channels.WritableByteChannel) channel).write(iov[iovStart])
                : channel.write(iov, iovStart, iovCount - iovStart);
        written += n;
        while (iovStart < iovCount && !iov[iovStart].hasRemaining()) {
            iovStart++;
        }
        if (iovStart == iovCount) {
            reset();
        }
        return n;
    }

    private void reset() {
        iovCount = 0;
        iovStart = 0;
        stagingEnd = 0;
        lastIsStaging = false;
        for (int i = 0; i < batchRegionCount; i++) {
            batchRegions[i] = null;
        }
        batchRegionCount = 0;
    }
}
