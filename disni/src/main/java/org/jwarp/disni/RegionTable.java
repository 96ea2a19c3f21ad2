package org.jwarp.disni;

import org.jwarp.verbs.MemoryRegion;

/**
 * Maps what DiSNI programs put into scatter/gather entries, a virtual address and an lkey, back to the
 * jwarp {@link MemoryRegion} and an offset in it. Lookups are on the data path: lock-free and
 * allocation-free reads of an open-addressing table keyed by lkey, replaced whole (copy on write) by
 * the rare registrations.
 */
public final class RegionTable {

    /** The table of the process's device. */
    public static final RegionTable INSTANCE = new RegionTable();

    /** A registered region with the address DiSNI knows it by. */
    public record Entry(int lkey, long address, long length, MemoryRegion region) {
    }

    private volatile Entry[] slots = new Entry[64];
    private int size;

    /** Adds {@code region}, known to the program at {@code address}. */
    public synchronized void register(long address, MemoryRegion region) {
        Entry[] next = copy(size + 1 > slots.length / 2 ? slots.length * 2 : slots.length);
        put(next, new Entry(region.lkey(), address, region.length(), region));
        size++;
        slots = next;
    }

    /** Removes the region with {@code lkey}; later SGEs naming it fail as on hardware. */
    public synchronized void unregister(int lkey) {
        Entry[] next = new Entry[slots.length];
        int n = 0;
        for (Entry e : slots) {
            if (e != null && e.lkey() != lkey) {
                put(next, e);
                n++;
            }
        }
        size = n;
        slots = next;
    }

    /** The entry of {@code lkey}, or null. */
    public Entry find(int lkey) {
        Entry[] t = slots;
        int mask = t.length - 1;
        for (int i = mix(lkey) & mask; ; i = (i + 1) & mask) {
            Entry e = t[i];
            if (e == null || e.lkey() == lkey) {
                return e;
            }
        }
    }

    /**
     * The offset of {@code address} in the region of {@code lkey} when {@code length} bytes from it lie
     * inside the region; else -1 (a local protection error on hardware).
     */
    public static long offsetIn(Entry e, long address, int length) {
        if (e == null) {
            return -1;
        }
        long off = address - e.address();
        return off >= 0 && length >= 0 && off + length <= e.length() ? off : -1;
    }

    private Entry[] copy(int capacity) {
        Entry[] next = new Entry[capacity];
        for (Entry e : slots) {
            if (e != null) {
                put(next, e);
            }
        }
        return next;
    }

    private static void put(Entry[] t, Entry e) {
        int mask = t.length - 1;
        int i = mix(e.lkey()) & mask;
        while (t[i] != null && t[i].lkey() != e.lkey()) {
            i = (i + 1) & mask;
        }
        t[i] = e;
    }

    private static int mix(int k) {
        int h = k * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
