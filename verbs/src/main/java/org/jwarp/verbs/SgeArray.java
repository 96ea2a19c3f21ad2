package org.jwarp.verbs;

import java.lang.foreign.MemorySegment;

/**
 * The scatter/gather entries of one work request in preallocated parallel arrays of fixed
 * capacity, so that refilling a request allocates nothing. {@link SendWr} and {@link RecvWr} keep
 * their SGEs here; only a send's entries may carry an unregistered (inline) source.
 */
final class SgeArray {

    /** The owning request's type name, for the messages of sizing bugs. */
    private final String owner;
    private final int[] lkey;
    private final long[] offset;
    private final int[] length;
    /** Inline sources, or {@code null} when the request takes none (a receive). */
    private final MemorySegment[] inline;
    private int count;

    /**
     * Room for {@code capacity} entries, with inline sources if {@code inlineSources}.
     *
     * @throws IllegalArgumentException if {@code capacity} is not in 1..65535
     */
    SgeArray(String owner, int capacity, boolean inlineSources) {
        if (capacity < 1 || capacity > 0xFFFF) {
            throw new IllegalArgumentException(owner + " SGE capacity must be in 1..65535: " + capacity);
        }
        this.owner = owner;
        lkey = new int[capacity];
        offset = new long[capacity];
        length = new int[capacity];
        inline = inlineSources ? new MemorySegment[capacity] : null;
    }

    int capacity() {
        return lkey.length;
    }

    int count() {
        return count;
    }

    /** Removes every entry, dropping the references to inline sources. */
    void clear() {
        if (inline != null) {
            for (int i = 0; i < count; i++) {
                inline[i] = null;
            }
        }
        count = 0;
    }

    /**
     * Appends an entry; {@code source} is {@code null} for a registered one.
     *
     * @throws IllegalStateException    if the capacity is exhausted (a sizing bug, not a data-path condition)
     * @throws IllegalArgumentException if {@code offset} or {@code length} is negative
     */
    void add(int lkey, long offset, int length, MemorySegment source) {
        if (count == this.lkey.length) {
            throw new IllegalStateException(owner + " holds at most " + this.lkey.length
                    + " SGEs; create it with new " + owner + "(maxSge)");
        }
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("SGE offset and length must be >= 0: offset=" + offset
                    + " length=" + length);
        }
        this.lkey[count] = lkey;
        this.offset[count] = offset;
        this.length[count] = length;
        if (inline != null) {
            inline[count] = source;
        }
        count++;
    }

    void setLength(int i, int length) {
        checkIndex(i);
        if (length < 0) {
            throw new IllegalArgumentException("SGE length must be >= 0: " + length);
        }
        this.length[i] = length;
    }

    int lkey(int i) {
        checkIndex(i);
        return lkey[i];
    }

    long offset(int i) {
        checkIndex(i);
        return offset[i];
    }

    int length(int i) {
        checkIndex(i);
        return length[i];
    }

    MemorySegment inlineSource(int i) {
        checkIndex(i);
        return inline == null ? null : inline[i];
    }

    /** {@return whether any entry has an inline source} */
    boolean hasInlineSource() {
        if (inline != null) {
            for (int i = 0; i < count; i++) {
                if (inline[i] != null) {
                    return true;
                }
            }
        }
        return false;
    }

    long totalLength() {
        long total = 0;
        for (int i = 0; i < count; i++) {
            total += length[i];
        }
        return total;
    }

    /**
     * Replaces these entries with {@code other}'s.
     *
     * @throws IllegalStateException if {@code other} has more entries than this capacity
     */
    void copyFrom(SgeArray other) {
        if (other.count > lkey.length) {
            throw new IllegalStateException("cannot copy " + other.count + " SGEs into a " + owner
                    + " of capacity " + lkey.length);
        }
        clear();
        System.arraycopy(other.lkey, 0, lkey, 0, other.count);
        System.arraycopy(other.offset, 0, offset, 0, other.count);
        System.arraycopy(other.length, 0, length, 0, other.count);
        if (inline != null && other.inline != null) {
            System.arraycopy(other.inline, 0, inline, 0, other.count);
        }
        count = other.count;
    }

    /** Appends the entries as {@code [lkey+offset/length, inline+offset/length, ...]}. */
    StringBuilder appendTo(StringBuilder sb) {
        sb.append('[');
        for (int i = 0; i < count; i++) {
            sb.append(i == 0 ? "" : ", ");
            if (inline != null && inline[i] != null) {
                sb.append("inline+");
            } else {
                sb.append(Stag.toString(lkey[i])).append('+');
            }
            sb.append(offset[i]).append('/').append(length[i]);
        }
        return sb.append(']');
    }

    private void checkIndex(int i) {
        if (i < 0 || i >= count) {
            throw new IndexOutOfBoundsException("SGE index " + i + " out of 0.." + (count - 1));
        }
    }
}
