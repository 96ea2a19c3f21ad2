package org.jwarp.wire;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.zip.CRC32C;

/**
 * CRC32c (Castagnoli) as MPA uses it: RFC 5044 §4.4 defines the FPDU CRC as the iSCSI digest of
 * RFC 3720 §12.1, which is exactly {@link CRC32C} (reflected polynomial 0x82F63B78, initial and
 * final XOR 0xFFFFFFFF). One instance accumulates one CRC at a time and is reusable. The JDK's
 * CRC32C reads {@link ByteBuffer}s, so an instance keeps a view of the last segment it saw and only
 * moves its position and limit: a codec that works on the same buffers allocates nothing (a view
 * made per update is not reliably scalar-replaced once the caller is large — JFR showed it).
 *
 * <p>RFC 5044 §4.4 (and the figures there): the 32-bit CRC value goes on the wire least
 * significant byte first, the one little-endian field of the iWARP suite. Use
 * {@link #putWire(MemorySegment, long, int)} and {@link #getWire(MemorySegment, long)}.
 */
public final class Crc32c {

    /** CRC of ASCII "123456789", the usual check value of the Castagnoli CRC. */
    public static final int CHECK_VALUE = 0xE3069283;

    private final CRC32C crc = new CRC32C();
    // two cached views: a codec alternates between its own buffer and the payload's region
    private MemorySegment viewed0;
    private ByteBuffer view0;
    private MemorySegment viewed1;
    private ByteBuffer view1;

    public Crc32c reset() {
        crc.reset();
        return this;
    }

    public Crc32c update(MemorySegment segment, long offset, long length) {
        if (length <= 0) {
            return this;
        }
        if (segment.byteSize() > Integer.MAX_VALUE) {
            crc.update(segment.asSlice(offset, length).asByteBuffer()); // a ByteBuffer cannot span it
            return this;
        }
        ByteBuffer view;
        if (segment == viewed0) {
            view = view0;
        } else if (segment == viewed1) {
            view = view1;
            // most recent first, so the older entry is the one replaced on a miss
            viewed1 = viewed0;
            view1 = view0;
            viewed0 = segment;
            view0 = view;
        } else {
            viewed1 = viewed0;
            view1 = view0;
            viewed0 = segment;
            view0 = segment.asByteBuffer();
            view = view0;
        }
        java.util.Objects.checkFromIndexSize(offset, length, segment.byteSize());
        view.clear().limit((int) (offset + length)).position((int) offset);
        crc.update(view);
        return this;
    }

    public Crc32c update(byte[] bytes, int offset, int length) {
        crc.update(bytes, offset, length);
        return this;
    }

    /** The CRC value of everything since the last reset (final XOR applied). */
    public int value() {
        return (int) crc.getValue();
    }

    /** One-shot CRC over a region (allocates nothing; for tests and setup code, a fresh engine). */
    public static int of(MemorySegment segment, long offset, long length) {
        CRC32C c = new CRC32C();
        if (length > 0) {
            c.update(segment.asSlice(offset, length).asByteBuffer());
        }
        return (int) c.getValue();
    }

    public static int of(byte[] bytes) {
        CRC32C c = new CRC32C();
        c.update(bytes, 0, bytes.length);
        return (int) c.getValue();
    }

    /** RFC 5044 §4.4: writes the CRC value least significant byte first. */
    public static void putWire(MemorySegment segment, long offset, int crcValue) {
        segment.set(Wire.INT_LE, offset, crcValue);
    }

    /** Reads a CRC value stored in wire order (least significant byte first). */
    public static int getWire(MemorySegment segment, long offset) {
        return segment.get(Wire.INT_LE, offset);
    }
}
