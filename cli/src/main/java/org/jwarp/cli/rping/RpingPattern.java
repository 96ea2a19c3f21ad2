package org.jwarp.cli.rping;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.charset.StandardCharsets;

/**
 * The ping data of rdma-core's rping, byte for byte, so that either side can check what the other
 * produced. For ping {@code n} (counted from 0 on each connection) a buffer of {@code size} bytes
 * holds the text {@code "rdma-ping-n: "} (as C's {@code snprintf} writes it, truncated to
 * {@code size - 1} characters), then the letters {@code 'A'..'z'} (ASCII 65 to 122) in a cycle that
 * starts at {@code 65 + n mod 58}, and a NUL as the last byte.
 */
public final class RpingPattern {

    /** The smallest {@code -S} the rping of rdma-core 44 (Debian bookworm) accepts. */
    public static final int MIN_SIZE = 23;
    /**
     * The largest {@code -S} it accepts: 64 KiB - 1. (Its usage message says 65536, but the check is
     * {@code size > RPING_BUFSIZE - 1}.)
     */
    public static final int MAX_SIZE = 64 * 1024 - 1;
    /** rping's default {@code -S}. */
    public static final int DEFAULT_SIZE = 64;

    private static final int FIRST = 65;
    private static final int LAST = 122;

    private RpingPattern() {
    }

    /** Fills {@code buf[0, size)} with the data of ping {@code ping}. */
    public static void fill(MemorySegment buf, int size, int ping) {
        byte[] text = header(ping);
        // snprintf(buf, size, ...) writes at most size - 1 characters and a NUL
        int cc = Math.min(text.length, size - 1);
        MemorySegment.copy(text, 0, buf, ValueLayout.JAVA_BYTE, 0, cc);
        if (cc < size) {
            buf.set(ValueLayout.JAVA_BYTE, cc, (byte) 0);
        }
        int c = start(ping);
        // the letter cycle starts after the whole text, even where snprintf truncated it
        for (int i = text.length; i < size; i++) {
            buf.set(ValueLayout.JAVA_BYTE, i, (byte) c);
            c = c == LAST ? FIRST : c + 1;
        }
        buf.set(ValueLayout.JAVA_BYTE, size - 1, (byte) 0);
    }

    /**
     * Compares {@code buf[0, size)} with the data of ping {@code ping}, using {@code scratch}
     * (at least {@code size} bytes) to build the expected bytes.
     *
     * @return the offset of the first differing byte, or -1 if all match
     */
    public static long firstMismatch(MemorySegment buf, int size, int ping, MemorySegment scratch) {
        fill(scratch, size, ping);
        return buf.asSlice(0, size).mismatch(scratch.asSlice(0, size));
    }

    /** The buffer read as a C string: the bytes before the first NUL (or all of them), as ASCII. */
    public static String cString(MemorySegment buf, int size) {
        int n = 0;
        while (n < size && buf.get(ValueLayout.JAVA_BYTE, n) != 0) {
            n++;
        }
        byte[] b = new byte[n];
        MemorySegment.copy(buf, ValueLayout.JAVA_BYTE, 0, b, 0, n);
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    /** The text of ping {@code ping} as rping's verbose output shows it ({@code size - 1} characters at most). */
    public static String expectedLine(int size, int ping) {
        MemorySegment s = MemorySegment.ofArray(new byte[size]);
        fill(s, size, ping);
        return cString(s, size);
    }

    private static byte[] header(int ping) {
        return ("rdma-ping-" + ping + ": ").getBytes(StandardCharsets.US_ASCII);
    }

    private static int start(int ping) {
        return FIRST + Math.floorMod(ping, LAST - FIRST + 1);
    }
}
