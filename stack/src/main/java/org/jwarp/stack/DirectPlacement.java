package org.jwarp.stack;

import java.lang.foreign.MemorySegment;

/**
 * Where the rest of the payload of the DDP segment being received goes, for an owner that reads
 * it from the LLP itself, straight into the target — the zero-copy receive a NIC's DMA engine does
 * (RFC 5041 §4: the DDP header names the buffer, so payload can be placed as it arrives). Filled by
 * {@link RdmapStream#directPlacement()} only after the segment passed every placement check; the
 * owner reads into the pieces in order and reports what arrived with
 * {@link RdmapStream#placedDirectly(long)}.
 *
 * <p>A tagged segment has one piece (the region at its STag and tagged offset); an untagged one
 * has one piece per scatter/gather entry of the posted receive that the rest of the payload
 * reaches. One instance per stream, reused (no allocation on the data path); valid until the
 * stream is next driven.
 */
public final class DirectPlacement {

    private final MemorySegment[] segments;
    private final long[] offsets;
    private final long[] lengths;
    private int pieces;
    private long length;
    private int trailer;
    private int segmentPayload;

    DirectPlacement(int maxPieces) {
        segments = new MemorySegment[Math.max(1, maxPieces)];
        offsets = new long[segments.length];
        lengths = new long[segments.length];
    }

    void clear() {
        for (int i = 0; i < pieces; i++) {
            segments[i] = null;
        }
        pieces = 0;
        length = 0;
        trailer = 0;
        segmentPayload = 0;
    }

    void add(MemorySegment segment, long offset, long n) {
        segments[pieces] = segment;
        offsets[pieces] = offset;
        lengths[pieces] = n;
        pieces++;
        length += n;
    }

    void trailer(int bytes) {
        trailer = bytes;
    }

    void segmentPayload(int bytes) {
        segmentPayload = bytes;
    }

    /** Bytes that may be placed directly now: 0 if none (then every byte goes through the stream). */
    public long length() {
        return length;
    }

    /** Number of pieces (scatter entries), in placement order. */
    public int pieces() {
        return pieces;
    }

    public MemorySegment segment(int piece) {
        return segments[piece];
    }

    public long offset(int piece) {
        return offsets[piece];
    }

    public long length(int piece) {
        return lengths[piece];
    }

    /**
     * Stream bytes between the end of {@link #length()} and the end of the current FPDU (any
     * payload held back, the pad and the CRC field): they must go through
     * {@link RdmapStream#receive}; an owner may read them, and more, into its staging buffer in
     * the same read.
     */
    public int trailer() {
        return trailer;
    }

    /** The whole payload of the segment (the part already received included). */
    public int segmentPayload() {
        return segmentPayload;
    }

    @Override
    public String toString() {
        return "DirectPlacement[" + length + " bytes in " + pieces + " pieces, trailer " + trailer + "]";
    }
}
