package org.jwarp.wire.rdmap;

import java.lang.foreign.MemorySegment;
import org.jwarp.wire.Wire;

/**
 * The RDMA Read Request header, after the untagged DDP header (RFC 5040 §4.4, Figure 8):
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                         Data Sink STag                        |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                  Data Sink Tagged Offset (64)                 |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                    RDMA Read Message Size                     |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                        Data Source STag                       |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                 Data Source Tagged Offset (64)                |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * A flyweight: {@link #wrap} points it at bytes; nothing is copied.
 */
public final class ReadRequestHeader {

    public static final int LENGTH = 28;
    static final int SINK_STAG = 0;
    static final int SINK_TO = 4;
    static final int READ_SIZE = 12;
    static final int SOURCE_STAG = 16;
    static final int SOURCE_TO = 20;

    private MemorySegment segment;
    private long base;

    public ReadRequestHeader wrap(MemorySegment segment, long offset) {
        this.segment = segment;
        this.base = offset;
        return this;
    }

    public int sinkStag() {
        return Wire.i32(segment, base + SINK_STAG);
    }

    public long sinkTo() {
        return Wire.i64(segment, base + SINK_TO);
    }

    /** RDMA Read Message Size, an unsigned 32-bit byte count (RFC 5040 §4.4). */
    public long readSize() {
        return Wire.u32(segment, base + READ_SIZE);
    }

    public int sourceStag() {
        return Wire.i32(segment, base + SOURCE_STAG);
    }

    public long sourceTo() {
        return Wire.i64(segment, base + SOURCE_TO);
    }

    public static void write(MemorySegment s, long off, int sinkStag, long sinkTo, long readSize,
                             int sourceStag, long sourceTo) {
        Wire.put32(s, off + SINK_STAG, sinkStag);
        Wire.put64(s, off + SINK_TO, sinkTo);
        Wire.put32(s, off + READ_SIZE, (int) readSize);
        Wire.put32(s, off + SOURCE_STAG, sourceStag);
        Wire.put64(s, off + SOURCE_TO, sourceTo);
    }
}
