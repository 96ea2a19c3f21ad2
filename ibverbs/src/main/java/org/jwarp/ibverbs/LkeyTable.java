package org.jwarp.ibverbs;

import java.util.Arrays;

/**
 * lkey to the address of a region's first byte: the verbs API names local bytes by (lkey, offset
 * from the region's start), libibverbs by address. Lookups (every SGE of every post) are lock-free
 * and allocation-free reads of an open-addressing table; registration, a setup call, replaces the
 * table under a lock.
 */
final class LkeyTable {

    private static final long EMPTY = -1L;

    /** Keys and addresses interleaved: {@code [2i]} = lkey (or EMPTY), {@code [2i + 1]} = address. */
    private volatile long[] slots = newSlots(64);
    private int size;

    /** The address of {@code lkey}'s first byte, or -1 if no region of this device has that lkey. */
    long address(int lkey) {
        long[] s = slots;
        int mask = (s.length >>> 1) - 1;
        for (int i = mix(lkey) & mask; ; i = (i + 1) & mask) {
            long k = s[2 * i];
            if (k == EMPTY) {
                return -1L;
            }
            if (k == (lkey & 0xFFFFFFFFL)) {
                return s[2 * i + 1];
            }
        }
    }

    synchronized void put(int lkey, long address) {
        long[] s = slots;
        if ((size + 1) * 2 > s.length >>> 1) {
            s = rehash(s, s.length);
        } else {
            s = s.clone();
        }
        if (insert(s, lkey, address)) {
            size++;
        }
        slots = s;
    }

    synchronized void remove(int lkey) {
        long[] old = slots;
        long[] s = newSlots(old.length >>> 1);
        int n = 0;
        for (int i = 0; i < old.length; i += 2) {
            if (old[i] != EMPTY && old[i] != (lkey & 0xFFFFFFFFL)) {
                insert(s, (int) old[i], old[i + 1]);
                n++;
            }
        }
        size = n;
        slots = s;
    }

    private static long[] rehash(long[] old, int capacity) {
        long[] s = newSlots(capacity);
        for (int i = 0; i < old.length; i += 2) {
            if (old[i] != EMPTY) {
                insert(s, (int) old[i], old[i + 1]);
            }
        }
        return s;
    }

    private static boolean insert(long[] s, int lkey, long address) {
        int mask = (s.length >>> 1) - 1;
        long key = lkey & 0xFFFFFFFFL;
        for (int i = mix(lkey) & mask; ; i = (i + 1) & mask) {
            if (s[2 * i] == EMPTY || s[2 * i] == key) {
                boolean added = s[2 * i] == EMPTY;
                s[2 * i] = key;
                s[2 * i + 1] = address;
                return added;
            }
        }
    }

    private static long[] newSlots(int capacity) {
        long[] s = new long[2 * capacity];
        Arrays.fill(s, EMPTY);
        return s;
    }

    private static int mix(int key) {
        int h = key * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
