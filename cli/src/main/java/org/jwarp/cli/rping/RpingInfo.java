package org.jwarp.cli.rping;

import java.lang.foreign.MemorySegment;
import org.jwarp.wire.Wire;

/**
 * The one message rping's two sides Send each other ({@code struct rping_rdma_info} of rdma-core's
 * {@code librdmacm/examples/rping.c}): a buffer advertisement, 16 bytes, every field in network
 * byte order.
 *
 * <pre>
 * off  size  field
 * 0    8     buf   the advertised buffer's address (the tagged offset a peer uses)
 * 8    4     rkey  its STag
 * 12   4     size  its length in bytes
 * </pre>
 *
 * The client advertises its source buffer (the server RDMA READs it) and then its sink buffer
 * (the server RDMA WRITEs it); the server's "go ahead" Sends are the same 16 bytes with
 * content that nobody reads (rping leaves them zero). A receiver checks only the length: rping
 * rejects any other byte count as "bogus data".
 *
 * @param buf  address / tagged offset of the buffer
 * @param rkey STag of the buffer
 * @param size length of the buffer (unsigned 32-bit on the wire)
 */
public record RpingInfo(long buf, int rkey, int size) {

    /** {@code sizeof(struct rping_rdma_info)}. */
    public static final int LENGTH = 16;

    /** The go-ahead message: all zero, as rping's server sends it. */
    public static final RpingInfo GO_AHEAD = new RpingInfo(0, 0, 0);

    /** Writes the 16 bytes at {@code offset}. */
    public void writeTo(MemorySegment s, long offset) {
        Wire.put64(s, offset, buf);
        Wire.put32(s, offset + 8, rkey);
        Wire.put32(s, offset + 12, size);
    }

    /** Reads the 16 bytes at {@code offset}. */
    public static RpingInfo read(MemorySegment s, long offset) {
        return new RpingInfo(Wire.i64(s, offset), Wire.i32(s, offset + 8), Wire.i32(s, offset + 12));
    }

    /** The size as the unsigned value it is on the wire. */
    public long sizeUnsigned() {
        return Integer.toUnsignedLong(size);
    }

    @Override
    public String toString() {
        return String.format("rkey %x addr %x len %d", rkey, buf, sizeUnsigned());
    }
}
