package org.jwarp.cli.faults;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;

/**
 * The bytes of message {@code seq}: every 8-byte word depends on the message and on its position,
 * so a message placed at the wrong offset, a stale one, a torn one or one of another sequence
 * number never matches.
 */
final class Pattern {

    private Pattern() {
    }

    static long word(long seq, long index) {
        long x = seq * 0x9E3779B97F4A7C15L + index * 0xC2B2AE3D27D4EB4FL + 0x165667B19E3779F9L;
        x ^= x >>> 29;
        return x * 0xBF58476D1CE4E5B9L;
    }

    /** Writes message {@code seq} of {@code len} bytes (a multiple of 8) at {@code off}. */
    static void fill(MemorySegment s, long off, int len, long seq) {
        for (int i = 0; i < len / 8; i++) {
            s.set(ValueLayout.JAVA_LONG_UNALIGNED, off + 8L * i, word(seq, i));
        }
    }

    /** True if {@code len} bytes at {@code off} are exactly message {@code seq}. */
    static boolean matches(MemorySegment s, long off, int len, long seq) {
        for (int i = 0; i < len / 8; i++) {
            if (s.get(ValueLayout.JAVA_LONG_UNALIGNED, off + 8L * i) != word(seq, i)) {
                return false;
            }
        }
        return true;
    }

    static void fill(byte[] b, int len, long seq) {
        fill(MemorySegment.ofArray(b), 0, len, seq);
    }

    static boolean matches(byte[] b, int len, long seq) {
        return matches(MemorySegment.ofArray(b), 0, len, seq);
    }
}
