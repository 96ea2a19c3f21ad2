package org.jwarp.engine.io;

import java.util.Arrays;

/**
 * Completions of a {@link Uring}'s event entries — readiness polls, connects, accepts — reaped
 * while the thread waited for something else, kept in order until the owner hands them on. The
 * arrays grow to the most completions ever waiting and are kept: no allocation after that.
 */
final class UringEvents {

    /** Where {@link #drain} hands each event. */
    @FunctionalInterface
    interface Handler {
        /** {@code token}: the entry's user data without {@link Uring#EVENT}; {@code res}: its result; {@code flags}: the completion's. */
        void event(long token, int res, int flags);
    }

    private long[] tokens = new long[64];
    private int[] results = new int[64];
    private int[] flags = new int[64];
    private int count;

    void add(long token, int res, int cqeFlags) {
        if (count == tokens.length) {
            tokens = Arrays.copyOf(tokens, count * 2);
            results = Arrays.copyOf(results, count * 2);
            flags = Arrays.copyOf(flags, count * 2);
        }
        tokens[count] = token;
        results[count] = res;
        flags[count] = cqeFlags;
        count++;
    }

    boolean isEmpty() {
        return count == 0;
    }

    /** Hands every kept event to {@code handler} in order; returns how many. */
    int drain(Handler handler) {
        int n = count;
        // a handler may make a call that reaps more: those stay for the next drain
        for (int i = 0; i < n; i++) {
            handler.event(tokens[i], results[i], flags[i]);
        }
        System.arraycopy(tokens, n, tokens, 0, count - n);
        System.arraycopy(results, n, results, 0, count - n);
        System.arraycopy(flags, n, flags, 0, count - n);
        count -= n;
        return n;
    }
}
