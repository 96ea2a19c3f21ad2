package org.jwarp.stack;

import java.lang.foreign.MemorySegment;
import org.jwarp.stack.StagTable.Region;
import org.jwarp.verbs.ScatterGatherList;

/**
 * A position in a work request's scatter/gather list, with the regions its entries resolved to:
 * the one walk used to gather a message's payload for transmit, to copy a received payload into a
 * receive's entries, to offer those entries for direct placement, and to move past bytes placed
 * there. Entries of length 0 are stepped over.
 */
final class SgeCursor {

    private final Region[] regions;
    private ScatterGatherList list;
    private int count;
    private int sge;
    /** Length of entry {@link #sge}, read once per entry. */
    private long entryLength;
    private long inSge;
    private long position;

    /** @param maxSge the most entries a request may have */
    SgeCursor(int maxSge) {
        this.regions = new Region[maxSge];
    }

    int capacity() {
        return regions.length;
    }

    /** Entry {@code i} resolved to {@code region} (null for an inline entry of a send). */
    void resolve(int i, Region region) {
        regions[i] = region;
    }

    Region region(int i) {
        return regions[i];
    }

    /** Starts at the first byte of {@code list}, whose entries were {@link #resolve resolved}. */
    void start(ScatterGatherList list) {
        this.list = list;
        count = list.numSge();
        sge = 0;
        entryLength = count > 0 ? list.sgeLength(0) : 0;
        inSge = 0;
        position = 0;
    }

    /** Bytes passed since {@link #start}. */
    long position() {
        return position;
    }

    /** Steps over used-up entries; returns the bytes left in the current one, 0 at the list's end. */
    long current() {
        while (inSge == entryLength && sge < count) {
            sge++;
            inSge = 0;
            entryLength = sge < count ? list.sgeLength(sge) : 0;
        }
        return entryLength - inSge;
    }

    /** Index of the current entry (after {@link #current()}). */
    int index() {
        return sge;
    }

    /** Offset of the current byte within the current entry's region. */
    long regionOffset() {
        return list.sgeOffset(sge) + inSge;
    }

    /** Moves past {@code n} bytes of the current entry ({@code n} at most {@link #current()}). */
    void advanceWithin(long n) {
        inSge += n;
        position += n;
    }

    /** Moves past {@code n} bytes, across entries. */
    void advance(long n) {
        while (n > 0) {
            long k = Math.min(n, current());
            if (k == 0) {
                throw new IllegalStateException("moved past the end of the scatter/gather list");
            }
            inSge += k;
            position += k;
            n -= k;
        }
    }

    /** Copies {@code length} bytes into the entries from the current position on, and moves past them. */
    void scatter(MemorySegment src, long offset, int length) {
        while (length > 0) {
            int n = (int) Math.min(length, current());
            if (n == 0) {
                throw new IllegalStateException("copied past the end of the scatter/gather list");
            }
            MemorySegment.copy(src, offset, regions[sge].segment(), regionOffset(), n);
            inSge += n;
            position += n;
            offset += n;
            length -= n;
        }
    }

    /** Whether the memory of a resolved entry was freed (its arena closed). */
    boolean memoryGone() {
        for (int i = 0; i < count; i++) {
            Region r = regions[i];
            if (r != null && !r.segment().scope().isAlive()) {
                return true;
            }
        }
        return false;
    }

    /**
     * Adds the next {@code n} bytes' places to {@code into}, one piece per entry, without moving;
     * stops before an entry whose memory was freed.
     */
    void offer(DirectPlacement into, long n) {
        int i = sge;
        long in = inSge;
        while (n > 0) {
            long entry = list.sgeLength(i);
            if (in == entry) {
                i++;
                in = 0;
                continue;
            }
            long k = Math.min(n, entry - in);
            MemorySegment target = regions[i].segment();
            if (!target.scope().isAlive()) {
                return;     // freed memory is never handed to a system call; the copy path finds it gone
            }
            into.add(target, list.sgeOffset(i) + in, k);
            in += k;
            n -= k;
        }
    }
}
