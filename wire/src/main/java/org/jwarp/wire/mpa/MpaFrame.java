package org.jwarp.wire.mpa;

import java.lang.foreign.MemorySegment;
import org.jwarp.wire.Wire;

/**
 * Flyweight over an MPA Request or Reply frame in a {@link MemorySegment} (RFC 5044 §7.1.1, with
 * the S flag of RFC 6581 §6). Reads and writes go straight to the segment in network byte order;
 * nothing is copied and nothing is allocated, so one instance can be re-wrapped for every frame.
 *
 * <pre>
 *  0                   1                   2                   3
 *  0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1 2 3 4 5 6 7 8 9 0 1
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * 0                                                               |
 * +      Key (16 bytes containing "MPA ID Req Frame"):            +
 * 4      (4D 50 41 20 49 44 20 52 65 71 20 46 72 61 6D 65)        |
 * +      Or  (16 bytes containing "MPA ID Rep Frame"):            +
 * 8      (4D 50 41 20 49 44 20 52 65 70 20 46 72 61 6D 65)        |
 * +                                                               +
 * 12                                                              |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * 16|M|C|R|S| Res |     Rev       |          PD_Length            |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * ~                                                               ~
 * ~                   Private Data                                ~
 * |                                                               |
 * |                               +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * |                               |
 * +-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+-+
 * </pre>
 *
 * <p>M: the sender wants to <em>receive</em> markers. C: the sender wants CRC (on if set in either
 * frame). R: reject, meaningful in a Reply only. S (RFC 6581 §6): Private Data begins with the
 * 4-byte {@link MpaV2Header}. Res: four reserved bits.
 *
 * <p>This class does not validate; {@link MpaFrameReader} does, before it hands out a frame.
 */
public final class MpaFrame {

    public static final int KEY_OFFSET = 0;
    public static final int FLAGS_OFFSET = 16;
    public static final int REVISION_OFFSET = 17;
    public static final int PRIVATE_DATA_LENGTH_OFFSET = 18;
    public static final int PRIVATE_DATA_OFFSET = 20;
    /** Bytes before the private data: key, flags, Rev, PD_Length. */
    public static final int HEADER_LENGTH = 20;

    /** RFC 5044 §7.1.1: PD_Length MUST NOT exceed 512 (RFC 6581 §7: the enhanced header counts). */
    public static final int MAX_PRIVATE_DATA_LENGTH = 512;
    /**
     * What Linux siw ({@code MPA_MAX_PRIVDATA}) and Chelsio cxgb4 ({@code MPA_MAX_PRIVATE_DATA})
     * accept: a larger frame fails with EPROTO. A policy that may meet them sends no more.
     */
    public static final int SIW_MAX_PRIVATE_DATA_LENGTH = 256;
    /** The largest frame a conforming peer can send: 20 + 512. */
    public static final int MAX_FRAME_LENGTH = HEADER_LENGTH + MAX_PRIVATE_DATA_LENGTH;

    /** Flags-byte masks (byte 16). */
    public static final int FLAG_MARKERS = 0x80;
    public static final int FLAG_CRC = 0x40;
    public static final int FLAG_REJECT = 0x20;
    public static final int FLAG_ENHANCED = 0x10;
    public static final int FLAGS_RESERVED = 0x0F;
    /** The flags this implementation defines and may send. */
    public static final int FLAGS_DEFINED = FLAG_MARKERS | FLAG_CRC | FLAG_REJECT | FLAG_ENHANCED;

    /** RFC 5044 revision. */
    public static final int REVISION_1 = 1;
    /** RFC 6581: revision needed for the enhanced connection setup. */
    public static final int REVISION_2 = 2;

    private MemorySegment segment;
    private long offset;

    /** Points this flyweight at a frame starting at {@code offset}; returns {@code this}. */
    public MpaFrame wrap(MemorySegment segment, long offset) {
        this.segment = segment;
        this.offset = offset;
        return this;
    }

    public MemorySegment segment() {
        return segment;
    }

    public long offset() {
        return offset;
    }

    // ---- readers -------------------------------------------------------------------------

    /** The frame type named by the key, or {@code null} if the key is neither. */
    public MpaFrameType type() {
        return MpaFrameType.ofKey(segment, offset + KEY_OFFSET);
    }

    /** The whole flags byte, reserved bits included. */
    public int flags() {
        return Wire.u8(segment, offset + FLAGS_OFFSET);
    }

    /** M: the sender of this frame wants to receive markers. */
    public boolean markers() {
        return (flags() & FLAG_MARKERS) != 0;
    }

    /** C: the sender of this frame wants CRC. */
    public boolean crc() {
        return (flags() & FLAG_CRC) != 0;
    }

    /** R: the Reply rejects the connection. Meaningless in a Request. */
    public boolean reject() {
        return (flags() & FLAG_REJECT) != 0;
    }

    /** The raw S bit; see {@link #hasEnhancedHeader()} for whether it counts. */
    public boolean enhanced() {
        return (flags() & FLAG_ENHANCED) != 0;
    }

    /** The four reserved bits as received (siw may set 0x08, its experimental GSO flag). */
    public int reservedFlags() {
        return flags() & FLAGS_RESERVED;
    }

    public int revision() {
        return Wire.u8(segment, offset + REVISION_OFFSET);
    }

    public int privateDataLength() {
        return Wire.u16(segment, offset + PRIVATE_DATA_LENGTH_OFFSET);
    }

    /**
     * True if Private Data begins with the enhanced header: S set and Rev at least 2. With Rev 1
     * the bit predates RFC 6581 (it was reserved), so it is ignored, as siw does.
     */
    public boolean hasEnhancedHeader() {
        return enhanced() && revision() >= REVISION_2;
    }

    /** Absolute offset of Private Data in {@link #segment()}. */
    public long privateDataOffset() {
        return offset + PRIVATE_DATA_OFFSET;
    }

    /** 20 + PD_Length. */
    public int frameLength() {
        return HEADER_LENGTH + privateDataLength();
    }

    // ---- writers -------------------------------------------------------------------------

    /**
     * Writes key, flags, Rev and PD_Length. The caller then writes PD_Length bytes of private data
     * at {@link #privateDataOffset()} (an {@link MpaV2Header} first if S is set).
     *
     * @param flags a combination of {@link #FLAG_MARKERS}, {@link #FLAG_CRC}, {@link #FLAG_REJECT}
     *     and {@link #FLAG_ENHANCED}
     * @throws IllegalArgumentException if a reserved flag bit is set, R is set in a Request, or a
     *     field is out of range (a bug in the caller: this is the setup path)
     */
    public MpaFrame encode(MpaFrameType type, int flags, int revision, int privateDataLength) {
        // RFC 5044 §7.1.1: reserved bits MUST be sent as zero.
        if ((flags & ~FLAGS_DEFINED) != 0) {
            throw new IllegalArgumentException("reserved or unknown MPA flag bits: 0x"
                    + Integer.toHexString(flags));
        }
        // RFC 5044 §7.1.1: R is valid in a Reply only; a Request carries 0.
        if (type == MpaFrameType.REQUEST && (flags & FLAG_REJECT) != 0) {
            throw new IllegalArgumentException("R (reject) set in an MPA Request");
        }
        if (revision < 0 || revision > 0xFF) {
            throw new IllegalArgumentException("MPA revision out of range: " + revision);
        }
        // RFC 5044 §7.1.1: PD_Length MUST NOT exceed 512.
        if (privateDataLength < 0 || privateDataLength > MAX_PRIVATE_DATA_LENGTH) {
            throw new IllegalArgumentException("MPA private data length " + privateDataLength
                    + " outside 0.." + MAX_PRIVATE_DATA_LENGTH);
        }
        type.writeKey(segment, offset + KEY_OFFSET);
        Wire.put8(segment, offset + FLAGS_OFFSET, flags);
        Wire.put8(segment, offset + REVISION_OFFSET, revision);
        Wire.put16(segment, offset + PRIVATE_DATA_LENGTH_OFFSET, privateDataLength);
        return this;
    }

    /**
     * Copies {@code length} bytes from {@code src} into Private Data at {@code position} (0 = the
     * first private-data byte). Bounds are checked against PD_Length.
     */
    public MpaFrame putPrivateData(int position, MemorySegment src, long srcOffset, int length) {
        if (position < 0 || length < 0 || position + length > privateDataLength()) {
            throw new IllegalArgumentException("private data [" + position + ", " + (position + length)
                    + ") outside PD_Length " + privateDataLength());
        }
        MemorySegment.copy(src, srcOffset, segment, privateDataOffset() + position, length);
        return this;
    }
}
