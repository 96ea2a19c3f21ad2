package org.jwarp.wire.mpa;

import java.lang.foreign.MemorySegment;
import java.util.Arrays;
import java.util.Objects;
import org.jwarp.wire.Wire;

/**
 * An MPA Request or Reply as values, for the connection-setup path where a copy is fine: what
 * {@link MpaNegotiation} reads and produces. {@link #decode(MpaFrame)} and
 * {@link #encodeTo(MemorySegment, long)} convert to and from the wire through {@link MpaFrame}.
 *
 * @param type Request or Reply (the key)
 * @param markers M: the sender wants to receive markers
 * @param crc C: the sender wants CRC
 * @param reject R: a Reply that rejects; always false in a Request
 * @param revision Rev, 1 or 2
 * @param enhancedHeader the RFC 6581 header when S=1 and Rev 2, otherwise {@code null}
 * @param privateData the ULP's private data, after the enhanced header if there is one
 * @param reservedFlags the four reserved flag bits as received; informational only, never sent
 */
public record MpaMessage(MpaFrameType type, boolean markers, boolean crc, boolean reject,
        int revision, MpaV2Header enhancedHeader, byte[] privateData, int reservedFlags) {

    public MpaMessage {
        Objects.requireNonNull(type, "type");
        Objects.requireNonNull(privateData, "privateData");
        if (revision != MpaFrame.REVISION_1 && revision != MpaFrame.REVISION_2) {
            throw new IllegalArgumentException("MPA revision must be 1 or 2: " + revision);
        }
        // RFC 6581 §6: the enhanced header needs Rev 2.
        if (enhancedHeader != null && revision < MpaFrame.REVISION_2) {
            throw new IllegalArgumentException("enhanced MPA header needs revision 2");
        }
        if (type == MpaFrameType.REQUEST && reject) {
            throw new IllegalArgumentException("R (reject) set in an MPA Request");
        }
        if ((reservedFlags & ~MpaFrame.FLAGS_RESERVED) != 0) {
            throw new IllegalArgumentException("not a reserved-bits value: " + reservedFlags);
        }
        int pdLength = privateData.length + (enhancedHeader != null ? MpaV2Header.LENGTH : 0);
        // RFC 5044 §7.1.1, RFC 6581 §7: PD_Length, enhanced header included, MUST NOT exceed 512.
        if (pdLength > MpaFrame.MAX_PRIVATE_DATA_LENGTH) {
            throw new IllegalArgumentException("MPA private data of " + pdLength
                    + " bytes exceeds " + MpaFrame.MAX_PRIVATE_DATA_LENGTH);
        }
        privateData = privateData.clone();
    }

    /** A frame to send: reserved flags zero. */
    public static MpaMessage of(MpaFrameType type, boolean markers, boolean crc, boolean reject,
            int revision, MpaV2Header enhancedHeader, byte[] privateData) {
        return new MpaMessage(type, markers, crc, reject, revision, enhancedHeader, privateData, 0);
    }

    /**
     * Copies a frame that {@link MpaFrameReader} validated (so Rev is 1 or 2 and an enhanced header
     * fits). R is dropped from a Request (RFC 5044 §7.1.1: there it is not checked); S with Rev 1
     * is ignored (it was a reserved bit before RFC 6581) and all private data is the ULP's.
     */
    public static MpaMessage decode(MpaFrame frame) {
        MpaFrameType type = frame.type();
        if (type == null) {
            throw new IllegalArgumentException("not an MPA Request or Reply key");
        }
        int pdLength = frame.privateDataLength();
        long pd = frame.privateDataOffset();
        MpaV2Header header = null;
        if (frame.hasEnhancedHeader()) {
            header = MpaV2Header.read(frame.segment(), pd);
            pd += MpaV2Header.LENGTH;
            pdLength -= MpaV2Header.LENGTH;
        }
        byte[] data = frame.segment().asSlice(pd, pdLength).toArray(Wire.BYTE);
        return new MpaMessage(type, frame.markers(), frame.crc(),
                type == MpaFrameType.REPLY && frame.reject(), frame.revision(), header, data,
                frame.reservedFlags());
    }

    /** True if this frame carries the RFC 6581 header (S=1). */
    public boolean enhanced() {
        return enhancedHeader != null;
    }

    /** PD_Length: the ULP's private data plus the enhanced header if present. */
    public int privateDataLength() {
        return privateData.length + (enhancedHeader != null ? MpaV2Header.LENGTH : 0);
    }

    /** 20 + PD_Length. */
    public int frameLength() {
        return MpaFrame.HEADER_LENGTH + privateDataLength();
    }

    /** The ULP private data (a copy). */
    @Override
    public byte[] privateData() {
        return privateData.clone();
    }

    /**
     * Writes the frame at {@code offset}; returns its length. Reserved flag bits are written as 0
     * whatever {@link #reservedFlags()} says (RFC 5044 §7.1.1).
     */
    public int encodeTo(MemorySegment s, long offset) {
        int flags = (markers ? MpaFrame.FLAG_MARKERS : 0) | (crc ? MpaFrame.FLAG_CRC : 0)
                | (reject ? MpaFrame.FLAG_REJECT : 0) | (enhanced() ? MpaFrame.FLAG_ENHANCED : 0);
        MpaFrame frame = new MpaFrame().wrap(s, offset)
                .encode(type, flags, revision, privateDataLength());
        int at = 0;
        if (enhancedHeader != null) {
            enhancedHeader.writeTo(s, frame.privateDataOffset());
            at = MpaV2Header.LENGTH;
        }
        frame.putPrivateData(at, MemorySegment.ofArray(privateData), 0, privateData.length);
        return frameLength();
    }

    /** The frame's bytes, as they go on the wire. */
    public byte[] toBytes() {
        byte[] out = new byte[frameLength()];
        encodeTo(MemorySegment.ofArray(out), 0);
        return out;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MpaMessage m && type == m.type && markers == m.markers && crc == m.crc
                && reject == m.reject && revision == m.revision
                && Objects.equals(enhancedHeader, m.enhancedHeader)
                && Arrays.equals(privateData, m.privateData) && reservedFlags == m.reservedFlags;
    }

    @Override
    public int hashCode() {
        return Objects.hash(type, markers, crc, reject, revision, enhancedHeader,
                Arrays.hashCode(privateData), reservedFlags);
    }

    @Override
    public String toString() {
        MemorySegment pd = MemorySegment.ofArray(privateData);
        return "MpaMessage[" + type + (markers ? " M" : "") + (crc ? " C" : "")
                + (reject ? " R" : "") + (enhanced() ? " S" : "") + " rev=" + revision
                + (enhancedHeader != null ? " " + enhancedHeader : "")
                + " pd=[" + Wire.hex(pd, 0, pd.byteSize()) + "]"
                + (reservedFlags != 0 ? " res=0x" + Integer.toHexString(reservedFlags) : "") + "]";
    }
}
