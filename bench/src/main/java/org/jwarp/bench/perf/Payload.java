package org.jwarp.bench.perf;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.ByteOrder;

/**
 * What the messages carry, so that the receiving side can tell the data arrived whole and in order.
 *
 * <p><b>Pattern.</b> Byte {@code k} of a {@code size}-byte message is a fixed function of
 * {@code k} and {@code size} (a 64-bit mix per 8 bytes, not periodic in 256, so a shifted or
 * stale buffer does not pass). Receive buffers are zeroed before each size.
 *
 * <p><b>Stamp.</b> Ping-pong messages end with a big-endian round number of {@code min(8, size)}
 * bytes: the last byte (least significant) changes every round and is never 0x00 (a zeroed
 * buffer) or 0xFF (the {@linkplain #endStamp end marker}), so a poller that watches the last byte
 * (as perftest's write_lat does) sees every round and the end. Rounds count 1, 2, ... with the
 * low byte cycling 1..254 and the higher bytes counting cycles.
 */
public final class Payload {

    private static final ValueLayout.OfLong LONG_LE = ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);
    private static final VarHandle BYTE = ValueLayout.JAVA_BYTE.varHandle();

    /** Low byte of the end marker. */
    public static final int END_LOW = 0xFF;

    private Payload() {
    }

    /** Bytes of the stamp in a message of {@code size} bytes. */
    public static int stampWidth(int size) {
        return Math.min(8, size);
    }

    /** The stamp of round {@code round} (1, 2, ...) in {@code width} bytes. */
    public static long stamp(long round, int width) {
        long r = round - 1;
        long low = 1 + r % 254;
        long high = r / 254;
        long v = (high << 8) | low;
        return width == 8 ? v : v & ((1L << (8 * width)) - 1);
    }

    /** The end marker: every byte 0xFF. */
    public static long endStamp(int width) {
        return width == 8 ? -1L : (1L << (8 * width)) - 1;
    }

    /** Writes {@code value} big-endian in the last {@code stampWidth(size)} bytes of the message at {@code off}. */
    public static void putStamp(MemorySegment seg, long off, int size, long value) {
        int w = stampWidth(size);
        long at = off + size - w;
        for (int i = 0; i < w; i++) {
            seg.set(ValueLayout.JAVA_BYTE, at + i, (byte) (value >>> (8 * (w - 1 - i))));
        }
    }

    /** Reads the stamp of the message at {@code off}. */
    public static long getStamp(MemorySegment seg, long off, int size) {
        int w = stampWidth(size);
        long at = off + size - w;
        long v = 0;
        for (int i = 0; i < w; i++) {
            v = (v << 8) | (seg.get(ValueLayout.JAVA_BYTE, at + i) & 0xFF);
        }
        return v;
    }

    /** The last byte of the message at {@code off}, read with acquire semantics (for pollers). */
    public static int lastByteAcquire(MemorySegment seg, long off, int size) {
        return ((byte) BYTE.getAcquire(seg, off + size - 1)) & 0xFF;
    }

    /** Fills {@code [off, off + len)} with the pattern of {@code size}-byte messages. */
    public static void fill(MemorySegment seg, long off, long len, int size) {
        long seed = seed(size);
        long words = len >>> 3;
        for (long j = 0; j < words; j++) {
            seg.set(LONG_LE, off + 8 * j, mix(j + seed));
        }
        long w = mix(words + seed);
        for (long k = words << 3; k < len; k++) {
            seg.set(ValueLayout.JAVA_BYTE, off + k, (byte) (w >>> (8 * (k & 7))));
        }
    }

    /** Pattern byte {@code k} of a {@code size}-byte message. */
    public static byte expected(long k, int size) {
        return (byte) (mix((k >>> 3) + seed(size)) >>> (8 * (k & 7)));
    }

    /**
     * Checks {@code [off, off + len)} against the pattern.
     *
     * @return -1 if it matches, else the offset (from {@code off}) of the first wrong byte
     */
    public static long check(MemorySegment seg, long off, long len, int size) {
        return check(seg, off, 0, len, size);
    }

    /**
     * Checks bytes {@code [from, len)} of the message at {@code off} against the pattern.
     *
     * @return -1 if they match, else the offset (from {@code off}) of the first wrong byte
     */
    public static long check(MemorySegment seg, long off, long from, long len, int size) {
        long head = Math.min(len, (from + 7) & ~7L);
        long bad = firstBad(seg, off, from, head, size);
        if (bad >= 0 || head == len) {
            return bad;
        }
        long seed = seed(size);
        long words = len >>> 3;
        for (long j = head >>> 3; j < words; j++) {
            if (seg.get(LONG_LE, off + 8 * j) != mix(j + seed)) {
                return firstBad(seg, off, 8 * j, len, size);
            }
        }
        return firstBad(seg, off, words << 3, len, size);
    }

    private static long firstBad(MemorySegment seg, long off, long from, long len, int size) {
        for (long k = from; k < len; k++) {
            if (seg.get(ValueLayout.JAVA_BYTE, off + k) != expected(k, size)) {
                return k;
            }
        }
        return -1;
    }

    /** One line describing a mismatch found by {@link #check}. */
    public static String mismatch(String where, MemorySegment seg, long off, long at, int size) {
        return String.format("%s: byte %d of the %d-byte message is 0x%02x, expected 0x%02x", where, at, size,
                seg.get(ValueLayout.JAVA_BYTE, off + at) & 0xFF, expected(at, size) & 0xFF);
    }

    private static long seed(int size) {
        return (long) size * 0x9E3779B97F4A7C15L;
    }

    /** SplitMix64's finalizer. */
    private static long mix(long z) {
        z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
        z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
        return z ^ (z >>> 31);
    }
}
