package org.jwarp.disni;

/**
 * An int-keyed map for the data path (a completion's QP number to its endpoint): reads are lock-free
 * and allocation-free; the rare writes replace the whole table under a lock (copy on write).
 */
public final class IntMap<V> {
    private volatile Object[] table = new Object[32];   // key at 2i (Integer), value at 2i + 1
    private int size;

    /** The value of {@code key}, or null. */
    @SuppressWarnings("unchecked")
    public V get(int key) {
        Object[] t = table;
        int slots = t.length >> 1;
        for (int i = mix(key) & (slots - 1); ; i = (i + 1) & (slots - 1)) {
            Object k = t[2 * i];
            if (k == null) {
                return null;
            }
            if ((Integer) k == key) {
                return (V) t[2 * i + 1];
            }
        }
    }

    public synchronized void put(int key, V value) {
        Object[] t = rebuild(size + 1 > table.length / 4 ? table.length * 2 : table.length, key);
        insert(t, key, value);
        size = count(t);
        table = t;
    }

    public synchronized void remove(int key) {
        Object[] t = rebuild(table.length, key);
        size = count(t);
        table = t;
    }

    /** A copy of the table without {@code skip}. */
    private Object[] rebuild(int length, int skip) {
        Object[] t = new Object[length];
        Object[] old = table;
        for (int i = 0; i < old.length; i += 2) {
            if (old[i] != null && (Integer) old[i] != skip) {
                insert(t, (Integer) old[i], old[i + 1]);
            }
        }
        return t;
    }

    private static void insert(Object[] t, int key, Object value) {
        int slots = t.length >> 1;
        int i = mix(key) & (slots - 1);
        while (t[2 * i] != null) {
            i = (i + 1) & (slots - 1);
        }
        t[2 * i] = key;
        t[2 * i + 1] = value;
    }

    private static int count(Object[] t) {
        int n = 0;
        for (int i = 0; i < t.length; i += 2) {
            if (t[i] != null) {
                n++;
            }
        }
        return n;
    }

    private static int mix(int k) {
        int h = k * 0x9E3779B9;
        return h ^ (h >>> 16);
    }
}
