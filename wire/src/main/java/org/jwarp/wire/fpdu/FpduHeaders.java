package org.jwarp.wire.fpdu;

import java.lang.foreign.MemorySegment;
import org.jwarp.wire.ddp.DdpHeader;
import org.jwarp.wire.rdmap.TerminateHeader;

/**
 * Where the DDP and RDMAP headers of the FPDU {@link FpduDecoder} is reading are, for the stack to
 * read from HEADER to END: collected into the decoder's own buffer as they arrive (the general
 * path, any split of the stream), or where they lie in the window for an FPDU decoded whole (the
 * window holds them until the FPDU's end).
 */
final class FpduHeaders {

    /** The longest headers: ULPDU_Length, an untagged DDP header and the largest Terminate. */
    private static final int MAX = Fpdu.LENGTH_FIELD + DdpHeader.UNTAGGED_LENGTH + TerminateHeader.MAX_LENGTH;

    private final MemorySegment buffer = MemorySegment.ofArray(new byte[MAX]);
    private final DdpHeader ddp = new DdpHeader().wrap(buffer, Fpdu.LENGTH_FIELD);
    private MemorySegment at = buffer;
    /** Where the FPDU (its ULPDU_Length) starts in {@link #at}. */
    private long base;

    /** The general path: the headers are collected into this object's buffer ({@link #segment()}), from its start. */
    void collect() {
        at = buffer;
        base = 0;
        ddp.wrap(buffer, Fpdu.LENGTH_FIELD);
    }

    /** An FPDU decoded whole: its headers are read in {@code window}, the FPDU starting at {@code fpduStart}. */
    void inWindow(MemorySegment window, long fpduStart) {
        at = window;
        base = fpduStart;
        ddp.wrap(window, fpduStart + Fpdu.LENGTH_FIELD);
    }

    DdpHeader ddp() {
        return ddp;
    }

    MemorySegment segment() {
        return at;
    }

    /** Where the RDMAP header (after the DDP header) starts in {@link #segment()}. */
    long rdmapOffset() {
        return base + Fpdu.LENGTH_FIELD + DdpHeader.headerLength(ddp.control());
    }

    /** The RDMAP header's length, from the length of both headers. */
    int rdmapLength(int headersLength) {
        return headersLength - DdpHeader.headerLength(ddp.control());
    }
}
