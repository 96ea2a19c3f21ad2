package org.jwarp.wire;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteOrder;

/**
 * Byte-order-explicit, alignment-free value layouts for reading and writing wire fields in a
 * {@link MemorySegment}. Every iWARP field is big-endian (network order) except the MPA CRC
 * (RFC 5044 §4.4), which is little-endian; both are named here so no codec relies on the
 * platform's order.
 */
public final class Wire {

    public static final ValueLayout.OfByte BYTE = ValueLayout.JAVA_BYTE;
    public static final ValueLayout.OfShort SHORT_BE =
            ValueLayout.JAVA_SHORT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    public static final ValueLayout.OfInt INT_BE =
            ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    public static final ValueLayout.OfLong LONG_BE =
            ValueLayout.JAVA_LONG_UNALIGNED.withOrder(ByteOrder.BIG_ENDIAN);
    public static final ValueLayout.OfInt INT_LE =
            ValueLayout.JAVA_INT_UNALIGNED.withOrder(ByteOrder.LITTLE_ENDIAN);

    private Wire() {
    }

    public static int u8(MemorySegment s, long off) {
        return s.get(BYTE, off) & 0xFF;
    }

    public static int u16(MemorySegment s, long off) {
        return s.get(SHORT_BE, off) & 0xFFFF;
    }

    public static int i32(MemorySegment s, long off) {
        return s.get(INT_BE, off);
    }

    public static long u32(MemorySegment s, long off) {
        return s.get(INT_BE, off) & 0xFFFF_FFFFL;
    }

    public static long i64(MemorySegment s, long off) {
        return s.get(LONG_BE, off);
    }

    public static void put8(MemorySegment s, long off, int v) {
        s.set(BYTE, off, (byte) v);
    }

    public static void put16(MemorySegment s, long off, int v) {
        s.set(SHORT_BE, off, (short) v);
    }

    public static void put32(MemorySegment s, long off, int v) {
        s.set(INT_BE, off, v);
    }

    public static void put64(MemorySegment s, long off, long v) {
        s.set(LONG_BE, off, v);
    }

    /** Hex dump "00 16 c1 40 ..." for messages and self-checks (setup path only: allocates). */
    public static String hex(MemorySegment s, long off, long len) {
        StringBuilder sb = new StringBuilder((int) Math.min(len * 3, 1 << 20));
        for (long i = 0; i < len; i++) {
            if (i > 0) {
                sb.append(' ');
            }
            int b = u8(s, off + i);
            sb.append(Character.forDigit(b >>> 4, 16)).append(Character.forDigit(b & 0xF, 16));
        }
        return sb.toString();
    }

    /** Parses "00 16 c1 40" or "0016c140" (whitespace ignored) into bytes (tests and self-checks). */
    public static byte[] unhex(String hex) {
        String h = hex.replaceAll("\\s+", "");
        if ((h.length() & 1) != 0) {
            throw new IllegalArgumentException("odd number of hex digits");
        }
        byte[] out = new byte[h.length() / 2];
        for (int i = 0; i < out.length; i++) {
            int hi = Character.digit(h.charAt(2 * i), 16);
            int lo = Character.digit(h.charAt(2 * i + 1), 16);
            if (hi < 0 || lo < 0) {
                throw new IllegalArgumentException("not a hex digit near position " + 2 * i);
            }
            out[i] = (byte) (hi << 4 | lo);
        }
        return out;
    }
}
