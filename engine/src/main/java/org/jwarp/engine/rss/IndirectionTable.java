package org.jwarp.engine.rss;

import java.util.Arrays;

/**
 * RSS's indirection table: the low bits of a connection's hash pick an entry, and the entry names
 * the engine thread that serves the connection. Rebalancing rewrites entries, never hashes, so a
 * connection's entry never changes while its engine thread may.
 *
 * <p>Entries are read by the threads that set up connections and written by whoever rebalances;
 * each entry is a plain int read and written whole.
 */
public final class IndirectionTable {

    /** The table size when none is given. */
    public static final int DEFAULT_SIZE = 128;

    private final int[] entries;
    private final int engines;

    /**
     * A table of {@code size} entries (a power of two) spread over {@code engines} engine threads
     * round robin: entry i names engine i mod engines.
     */
    public IndirectionTable(int size, int engines) {
        if (size < 1 || Integer.bitCount(size) != 1) {
            throw new IllegalArgumentException("an indirection table has a power-of-two size, not " + size);
        }
        if (engines < 1) {
            throw new IllegalArgumentException("an indirection table needs at least one engine thread, not " + engines);
        }
        this.engines = engines;
        this.entries = new int[size];
        for (int i = 0; i < size; i++) {
            entries[i] = i % engines;
        }
    }

    public int size() {
        return entries.length;
    }

    public int engines() {
        return engines;
    }

    /** The entry a hash selects: its low bits. */
    public int entry(int hash) {
        return hash & (entries.length - 1);
    }

    /** The engine thread a hash selects. */
    public int engineFor(int hash) {
        return entries[entry(hash)];
    }

    /** The engine thread entry {@code i} names. */
    public int engineOf(int i) {
        return entries[i];
    }

    /** Points entry {@code i} at {@code engine} (rebalancing). */
    public void assign(int i, int engine) {
        if (engine < 0 || engine >= engines) {
            throw new IllegalArgumentException("engine " + engine + " out of 0.." + (engines - 1));
        }
        entries[i] = engine;
    }

    @Override
    public String toString() {
        return "IndirectionTable" + Arrays.toString(entries);
    }
}
