package org.jwarp.bench.transport.jwarp;

import java.nio.ByteBuffer;
import java.nio.ByteOrder;

/**
 * perftest's {@code pingpong_dest}, the 56-byte message its exchange channel carries (every
 * integer big-endian): what one side tells the other about a QP and the buffer the test
 * targets. Only {@code rkey} and {@code vaddr} are used; the rest is shown or ignored.
 *
 * <pre>
 *  0 lid (0 on iWARP)   4 out_reads   8 qpn   12 psn   16 rkey   20 padding
 * 24 vaddr (8)         32 gid (16)  48 srqn  52 gid_index
 * </pre>
 */
record PerftestDest(int outReads, int qpn, int psn, int rkey, long vaddr) {

    static final int SIZE = 56;

    /** The all-zero message perftest exchanges around connecting its data QPs. */
    static final PerftestDest NONE = new PerftestDest(0, 0, 0, 0, 0);

    byte[] encode() {
        ByteBuffer b = ByteBuffer.allocate(SIZE).order(ByteOrder.BIG_ENDIAN);
        b.putInt(0, 0).putInt(4, outReads).putInt(8, qpn).putInt(12, psn).putInt(16, rkey).putLong(24, vaddr);
        return b.array();
    }

    static PerftestDest decode(byte[] m) {
        if (m.length != SIZE) {
            throw new IllegalArgumentException("a perftest address message has " + SIZE + " bytes, not " + m.length);
        }
        ByteBuffer b = ByteBuffer.wrap(m).order(ByteOrder.BIG_ENDIAN);
        return new PerftestDest(b.getInt(4), b.getInt(8), b.getInt(12), b.getInt(16), b.getLong(24));
    }

    @Override
    public String toString() {
        return String.format("QPN 0x%04x PSN 0x%06x RKey 0x%08x VAddr 0x%016x", qpn, psn, rkey, vaddr);
    }
}
