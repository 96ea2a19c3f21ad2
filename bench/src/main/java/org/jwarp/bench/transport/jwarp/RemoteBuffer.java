package org.jwarp.bench.transport.jwarp;

import java.nio.ByteBuffer;
import org.jwarp.verbs.MemoryRegion;

/**
 * A registered buffer as a peer addresses it (tagged buffer model, RFC 5041 §3: STag and tagged
 * offset), carried in the MPA private data of connect or accept: address (8) | STag (4).
 */
public record RemoteBuffer(long addr, int rkey) {

    static final int BYTES = 12;

    public static RemoteBuffer of(MemoryRegion mr) {
        return new RemoteBuffer(mr.iova(), mr.rkey());
    }

    public static RemoteBuffer decode(byte[] privateData) {
        return readFrom(ByteBuffer.wrap(privateData));
    }

    static RemoteBuffer readFrom(ByteBuffer b) {
        return new RemoteBuffer(b.getLong(), b.getInt());
    }

    /** The same buffer from {@code offset} on. */
    public RemoteBuffer plus(long offset) {
        return new RemoteBuffer(addr + offset, rkey);
    }

    public byte[] encode() {
        return writeTo(ByteBuffer.allocate(BYTES)).array();
    }

    ByteBuffer writeTo(ByteBuffer b) {
        return b.putLong(addr).putInt(rkey);
    }
}
