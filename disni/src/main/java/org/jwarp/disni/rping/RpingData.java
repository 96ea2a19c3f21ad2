package org.jwarp.disni.rping;

import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * rdma-core's rping data: for ping {@code n} a buffer of {@code size} bytes holds
 * {@code "rdma-ping-n: "} (truncated to {@code size - 1} characters, as C's {@code snprintf} writes
 * it), then the letters {@code 'A'..'z'} in a cycle starting at {@code 65 + n mod 58}, and a NUL as
 * the last byte. The message both sides Send is {@code struct rping_rdma_info}: address (8 bytes),
 * rkey (4) and length (4), in network byte order.
 */
final class RpingData {

    /** {@code sizeof(struct rping_rdma_info)}. */
    static final int INFO_LENGTH = 16;
    /** rping's smallest and largest {@code -S}. */
    static final int MIN_SIZE = 23;
    static final int MAX_SIZE = 64 * 1024 - 1;

    private static final int FIRST = 'A';
    private static final int LAST = 'z';

    private RpingData() {
    }

    /** Fills {@code buf[0, size)} with ping {@code ping}'s data. */
    static void fill(ByteBuffer buf, int size, int ping) {
        byte[] text = ("rdma-ping-" + ping + ": ").getBytes(StandardCharsets.US_ASCII);
        int cc = Math.min(text.length, size - 1);
        buf.put(0, text, 0, cc);
        int c = FIRST + Math.floorMod(ping, LAST - FIRST + 1);
        for (int i = text.length; i < size; i++) {
            buf.put(i, (byte) c);
            c = c == LAST ? FIRST : c + 1;
        }
        buf.put(size - 1, (byte) 0);
    }

    /** The buffer's first {@code size} bytes read as a C string. */
    static String cString(ByteBuffer buf, int size) {
        int n = 0;
        while (n < size && buf.get(n) != 0) {
            n++;
        }
        byte[] b = new byte[n];
        buf.get(0, b, 0, n);
        return new String(b, StandardCharsets.ISO_8859_1);
    }

    /** Writes a buffer advertisement at the start of {@code msg} (a big-endian buffer). */
    static void putInfo(ByteBuffer msg, long addr, int rkey, int length) {
        msg.putLong(0, addr).putInt(8, rkey).putInt(12, length);
    }
}
