package org.jwarp.stack;

import java.util.Arrays;

/**
 * Growth of the parallel-array rings a stream keeps (the read queues, the held send completions): a queue starts small and doubles up to
 * its negotiated depth (IRD or ORD) the first times that many requests are outstanding, so that
 * a connection that never reads costs a few entries, not the depth. Each call copies the
 * {@code count} live entries from {@code head} on into positions {@code 0..count-1} of a new
 * array; the caller then sets its head to 0. Only a push that finds the ring full grows it.
 */
final class RingArrays {

    /** The first capacity of a queue that grows. */
    static final int FIRST = 4;

    private RingArrays() {
    }

    /** The next capacity after {@code current}, at most {@code bound}. */
    static int next(int current, int bound) {
        return Math.min(bound, Math.max(FIRST, current * 2));
    }

    static long[] grow(long[] a, int head, int count, int capacity) {
        long[] b = new long[capacity];
        for (int i = 0; i < count; i++) {
            b[i] = a[(head + i) % a.length];
        }
        return b;
    }

    static int[] grow(int[] a, int head, int count, int capacity) {
        int[] b = new int[capacity];
        for (int i = 0; i < count; i++) {
            b[i] = a[(head + i) % a.length];
        }
        return b;
    }

    static boolean[] grow(boolean[] a, int head, int count, int capacity) {
        boolean[] b = new boolean[capacity];
        for (int i = 0; i < count; i++) {
            b[i] = a[(head + i) % a.length];
        }
        return b;
    }

    static <T> T[] grow(T[] a, int head, int count, int capacity) {
        T[] b = Arrays.copyOf(a, capacity);
        for (int i = 0; i < count; i++) {
            b[i] = a[(head + i) % a.length];
        }
        Arrays.fill(b, count, capacity, null);
        return b;
    }
}
