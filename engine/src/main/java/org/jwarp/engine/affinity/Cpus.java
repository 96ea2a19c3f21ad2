package org.jwarp.engine.affinity;

import java.util.Arrays;

/**
 * An immutable set of CPU ids in {@code 0..MAX_CPUS-1}, as the kernel's cpulist format writes it
 * ({@code "0-3,8,10-11"}: taskset, {@code /sys/devices/system/node/node0/cpulist}) and as a
 * {@code cpu_set_t} holds it (1024 bits, 128 bytes).
 */
public final class Cpus {

    /** CPUs a {@code cpu_set_t} (glibc's {@code CPU_SETSIZE}) can name. */
    public static final int MAX_CPUS = 1024;

    /** Bytes of a {@code cpu_set_t}. */
    public static final int MASK_BYTES = MAX_CPUS / 8;

    /** The empty set. */
    public static final Cpus EMPTY = new Cpus(new long[MAX_CPUS / 64]);

    private final long[] words;

    private Cpus(long[] words) {
        this.words = words;
    }

    /**
     * Parses a cpulist: comma-separated CPU ids and inclusive ranges {@code a-b}, spaces allowed
     * around the items. Overlaps are allowed (union). The result is sorted.
     *
     * @throws IllegalArgumentException naming the offending item if the list is blank, an item is
     *                                  empty or not a number, a range runs backwards, or an id is
     *                                  outside {@code 0..1023}
     */
    public static Cpus parse(String list) {
        if (list == null || list.isBlank()) {
            throw new IllegalArgumentException("CPU list is empty; expected e.g. \"0-1,3\"");
        }
        long[] words = new long[MAX_CPUS / 64];
        String[] items = list.split(",", -1);
        for (String raw : items) {
            String item = raw.strip();
            if (item.isEmpty()) {
                throw new IllegalArgumentException("CPU list \"" + list + "\" has an empty item");
            }
            int dash = item.indexOf('-');
            int lo;
            int hi;
            if (dash < 0) {
                lo = hi = cpuId(list, item, item);
            } else {
                lo = cpuId(list, item, item.substring(0, dash).strip());
                hi = cpuId(list, item, item.substring(dash + 1).strip());
                if (hi < lo) {
                    throw new IllegalArgumentException("CPU range \"" + item + "\" in \"" + list + "\" runs backwards");
                }
            }
            for (int cpu = lo; cpu <= hi; cpu++) {
                words[cpu >>> 6] |= 1L << cpu;
            }
        }
        return new Cpus(words);
    }

    /**
     * Parses the contents of a sysfs cpulist file: like {@link #parse} after trimming the newline,
     * but an empty file (a memory-only NUMA node) is the empty set.
     */
    public static Cpus parseSysfs(String contents) {
        return contents == null || contents.isBlank() ? EMPTY : parse(contents.strip());
    }

    private static int cpuId(String list, String item, String s) {
        if (s.isEmpty()) {
            throw new IllegalArgumentException("CPU item \"" + item + "\" in \"" + list + "\" is missing a number");
        }
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if (c < '0' || c > '9') {
                throw new IllegalArgumentException("CPU item \"" + item + "\" in \"" + list
                        + "\" is not a CPU id or a range a-b");
            }
        }
        if (s.length() > 4 || Integer.parseInt(s) >= MAX_CPUS) {
            throw new IllegalArgumentException("CPU id " + s + " in \"" + list + "\" is out of range 0.."
                    + (MAX_CPUS - 1));
        }
        return Integer.parseInt(s);
    }

    /**
     * The set of the given ids.
     *
     * @throws IllegalArgumentException if an id is outside {@code 0..1023}
     */
    public static Cpus of(int... cpus) {
        long[] words = new long[MAX_CPUS / 64];
        for (int cpu : cpus) {
            if (cpu < 0 || cpu >= MAX_CPUS) {
                throw new IllegalArgumentException("CPU id " + cpu + " is out of range 0.." + (MAX_CPUS - 1));
            }
            words[cpu >>> 6] |= 1L << cpu;
        }
        return new Cpus(words);
    }

    /** The set whose {@code cpu_set_t} words (bit {@code i} of word {@code i / 64} = CPU {@code i}) are given. */
    public static Cpus fromMask(long[] mask) {
        if (mask.length != MAX_CPUS / 64) {
            throw new IllegalArgumentException("a cpu_set_t mask has " + MAX_CPUS / 64 + " words, not " + mask.length);
        }
        return new Cpus(mask.clone());
    }

    /** This set as {@code cpu_set_t} words. */
    public long[] toMask() {
        return words.clone();
    }

    /** Whether {@code cpu} is in the set. */
    public boolean contains(int cpu) {
        return cpu >= 0 && cpu < MAX_CPUS && (words[cpu >>> 6] & (1L << cpu)) != 0;
    }

    /** Number of CPUs. */
    public int size() {
        int n = 0;
        for (long w : words) {
            n += Long.bitCount(w);
        }
        return n;
    }

    /** True if the set holds no CPU. */
    public boolean isEmpty() {
        return size() == 0;
    }

    /** The ids in ascending order. */
    public int[] toArray() {
        int[] out = new int[size()];
        int n = 0;
        for (int w = 0; w < words.length; w++) {
            long bits = words[w];
            while (bits != 0) {
                out[n++] = w * 64 + Long.numberOfTrailingZeros(bits);
                bits &= bits - 1;
            }
        }
        return out;
    }

    /** The CPU ids in ascending order, as a list. */
    public java.util.List<Integer> toList() {
        return java.util.Arrays.stream(toArray()).boxed().toList();
    }

    /** The smallest id. @throws IllegalStateException if empty */
    public int first() {
        for (int w = 0; w < words.length; w++) {
            if (words[w] != 0) {
                return w * 64 + Long.numberOfTrailingZeros(words[w]);
            }
        }
        throw new IllegalStateException("the CPU set is empty");
    }

    /** The canonical cpulist, e.g. {@code "0-1,3"} ({@code ""} when empty); {@link #parse} reads it back. */
    @Override
    public String toString() {
        int[] ids = toArray();
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < ids.length; ) {
            int j = i;
            while (j + 1 < ids.length && ids[j + 1] == ids[j] + 1) {
                j++;
            }
            if (!sb.isEmpty()) {
                sb.append(',');
            }
            sb.append(ids[i]);
            if (j > i) {
                sb.append('-').append(ids[j]);
            }
            i = j + 1;
        }
        return sb.toString();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof Cpus other && Arrays.equals(words, other.words);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(words);
    }
}
