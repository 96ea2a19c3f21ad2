package org.jwarp.bench.experiment;

import java.nio.ByteBuffer;
import org.jwarp.verbs.MemoryRegion;

/**
 * A registered buffer as a peer addresses it (tagged buffer model, RFC 5041 §3: STag and tagged
 * offset), carried in the MPA private data of connect or accept.
 */
public record RemoteBuffer(long addr, int rkey) {

    static final int BYTES = 12;

    public static RemoteBuffer of(MemoryRegion mr) {
        return new RemoteBuffer(mr.iova(), mr.rkey());
    }

    public static RemoteBuffer decode(byte[] privateData) {
        ByteBuffer b = ByteBuffer.wrap(privateData);
        return new RemoteBuffer(b.getLong(), b.getInt());
    }

    /** The same buffer from {@code offset} on. */
    public RemoteBuffer plus(long offset) {
        return new RemoteBuffer(addr + offset, rkey);
    }

    public byte[] encode() {
        return ByteBuffer.allocate(BYTES).putLong(addr).putInt(rkey).array();
    }
}
