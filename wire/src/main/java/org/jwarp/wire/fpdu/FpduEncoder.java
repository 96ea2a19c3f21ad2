package org.jwarp.wire.fpdu;

import java.lang.foreign.MemorySegment;
import org.jwarp.wire.Crc32c;
import org.jwarp.wire.Wire;

/**
 * Frames ULPDUs (DDP segments) as FPDUs for one direction of one MPA connection (RFC 5044 §4):
 * ULPDU_Length, the ULPDU, pad, CRC, and markers every 512 bytes of stream when the peer asked
 * for them (RFC 5044 §4.3). It keeps the stream position that marker placement needs, so one
 * encoder serves one TX stream, owned by one thread. It allocates nothing.
 *
 * <p>Two ways to use it:
 * <ul>
 *   <li>{@link #encode}: copies header and payload into the destination, inserting markers —
 *       the path for small messages and for streams with markers;</li>
 *   <li>{@link #encodePrefix}, {@link #payload}, {@link #encodeTrailer}: writes only the length
 *       field + header and the pad + CRC, so the payload can be gathered straight from registered
 *       memory into the socket (no markers on such a stream).</li>
 * </ul>
 */
public final class FpduEncoder {

    private static final MemorySegment ZEROS = MemorySegment.ofArray(new byte[4]);

    private final Crc32c crc = new Crc32c();
    private final MemorySegment lengthField = MemorySegment.ofArray(new byte[Fpdu.LENGTH_FIELD]);
    private boolean crcEnabled;
    private boolean markersEnabled;
    private long streamPosition;
    private long fpduStart;
    private int pendingUlpduLength = -1;

    /**
     * Starts full operation. {@code streamPosition} is the number of stream bytes already sent
     * since full operation began (0 for a new connection); RFC 5044 §4.3 places the first marker
     * at position 0, before the first FPDU.
     */
    public FpduEncoder start(boolean crcEnabled, boolean markersEnabled, long streamPosition) {
        this.crcEnabled = crcEnabled;
        this.markersEnabled = markersEnabled;
        this.streamPosition = streamPosition;
        this.pendingUlpduLength = -1;
        return this;
    }

    public boolean crcEnabled() {
        return crcEnabled;
    }

    public boolean markersEnabled() {
        return markersEnabled;
    }

    /** Stream bytes sent since full operation began (markers included). */
    public long streamPosition() {
        return streamPosition;
    }

    /** Bytes {@link #encode} will write for a ULPDU of this length at the current position. */
    public long encodedLength(int ulpduLength) {
        return markersEnabled ? Fpdu.lengthWithMarkers(ulpduLength, streamPosition) : Fpdu.length(ulpduLength);
    }

    /**
     * Writes one complete FPDU whose ULPDU is {@code header} followed by {@code payload}, and
     * returns the number of bytes written. The destination must have {@link #encodedLength} bytes.
     */
    public int encode(MemorySegment dst, long dstOffset,
                      MemorySegment header, long headerOffset, int headerLength,
                      MemorySegment payload, long payloadOffset, int payloadLength) {
        int ulpduLength = checkUlpduLength(headerLength, payloadLength);
        if (!markersEnabled) {
            return encodeWithoutMarkers(dst, dstOffset, header, headerOffset, headerLength,
                    payload, payloadOffset, payloadLength, ulpduLength);
        }
        long d = dstOffset;
        // RFC 5044 §4.3: a marker that falls exactly between two FPDUs belongs to the next one
        // (FPDUPTR 0), and the CRC of that FPDU covers it (RFC 5044 §4.4).
        if (markersEnabled && atMarker()) {
            d = putMarker(dst, d, 0);
        }
        fpduStart = streamPosition;
        Wire.put16(lengthField, 0, ulpduLength);
        d = put(dst, d, lengthField, 0, Fpdu.LENGTH_FIELD);
        d = put(dst, d, header, headerOffset, headerLength);
        d = put(dst, d, payload, payloadOffset, payloadLength);
        // RFC 5044 §4.1: PAD MUST be zeros on transmit.
        d = put(dst, d, ZEROS, 0, Fpdu.pad(ulpduLength));
        if (markersEnabled && atMarker()) {
            d = putMarker(dst, d, streamPosition - fpduStart);
        }
        int crcValue = crcEnabled ? crc.reset().update(dst, dstOffset, d - dstOffset).value() : 0;
        return (int) (putCrc(dst, d, crcValue) - dstOffset);
    }

    /**
     * {@link #encode} on a stream without markers, the small-message path: the length field and
     * the pad are written in place, the header and payload copied once each, one CRC pass.
     */
    private int encodeWithoutMarkers(MemorySegment dst, long dstOffset, MemorySegment header, long headerOffset,
                                     int headerLength, MemorySegment payload, long payloadOffset, int payloadLength,
                                     int ulpduLength) {
        Wire.put16(dst, dstOffset, ulpduLength);
        long d = dstOffset + Fpdu.LENGTH_FIELD;
        MemorySegment.copy(header, headerOffset, dst, d, headerLength);
        d += headerLength;
        if (payloadLength > 0) {
            MemorySegment.copy(payload, payloadOffset, dst, d, payloadLength);
            d += payloadLength;
        }
        int pad = Fpdu.pad(ulpduLength);
        if (pad > 0) {
            // RFC 5044 §4.1: PAD MUST be zeros; the CRC field written next covers the rest of these four
            Wire.put32(dst, d, 0);
            d += pad;
        }
        int crcValue = crcEnabled ? crc.reset().update(dst, dstOffset, d - dstOffset).value() : 0;
        int written = (int) (d - dstOffset) + Fpdu.CRC_LENGTH;
        Crc32c.putWire(dst, d, crcValue);
        fpduStart = streamPosition;
        streamPosition += written;
        return written;
    }

    /**
     * Zero-copy path, part 1: writes ULPDU_Length and the header, and starts the CRC. The caller
     * then hands the payload to the socket and to {@link #payload}, and ends with
     * {@link #encodeTrailer}. Not for streams with markers.
     */
    public int encodePrefix(MemorySegment dst, long dstOffset, MemorySegment header, long headerOffset,
                            int headerLength, int payloadLength) {
        if (markersEnabled) {
            throw new IllegalStateException("zero-copy framing cannot place markers; use encode()");
        }
        if (pendingUlpduLength >= 0) {
            throw new IllegalStateException("previous FPDU has no trailer yet");
        }
        int ulpduLength = checkUlpduLength(headerLength, payloadLength);
        Wire.put16(dst, dstOffset, ulpduLength);
        MemorySegment.copy(header, headerOffset, dst, dstOffset + Fpdu.LENGTH_FIELD, headerLength);
        int written = Fpdu.LENGTH_FIELD + headerLength;
        if (crcEnabled) {
            crc.reset().update(dst, dstOffset, written);
        }
        streamPosition += written;
        pendingUlpduLength = ulpduLength;
        return written;
    }

    /** Zero-copy path, part 2: accounts for payload bytes sent from elsewhere (CRC and position). */
    public void payload(MemorySegment payload, long offset, int length) {
        if (crcEnabled) {
            crc.update(payload, offset, length);
        }
        streamPosition += length;
    }

    /**
     * Zero-copy path: drops the FPDU {@link #encodePrefix} began, whose {@code prefixLength} bytes
     * the caller will not send (its payload could not be read): the encoder is as before the prefix.
     */
    public void cancelPrefix(int prefixLength) {
        if (pendingUlpduLength < 0) {
            throw new IllegalStateException("no FPDU started");
        }
        pendingUlpduLength = -1;
        streamPosition -= prefixLength;
    }

    /** Zero-copy path, part 3: writes pad and CRC; returns the number of bytes written (4 to 7). */
    public int encodeTrailer(MemorySegment dst, long dstOffset) {
        if (pendingUlpduLength < 0) {
            throw new IllegalStateException("no FPDU started");
        }
        int pad = Fpdu.pad(pendingUlpduLength);
        pendingUlpduLength = -1;
        MemorySegment.copy(ZEROS, 0, dst, dstOffset, pad);
        if (crcEnabled) {
            crc.update(dst, dstOffset, pad);
        }
        Crc32c.putWire(dst, dstOffset + pad, crcEnabled ? crc.value() : 0);
        streamPosition += pad + Fpdu.CRC_LENGTH;
        return pad + Fpdu.CRC_LENGTH;
    }

    private static int checkUlpduLength(int headerLength, int payloadLength) {
        int ulpduLength = headerLength + payloadLength;
        if (headerLength < 0 || payloadLength < 0 || ulpduLength > Fpdu.MAX_ULPDU_LENGTH) {
            throw new IllegalArgumentException("ULPDU length " + ulpduLength + " does not fit an FPDU");
        }
        return ulpduLength;
    }

    private boolean atMarker() {
        return (streamPosition & (Fpdu.MARKER_INTERVAL - 1)) == 0;
    }

    /** Copies bytes to the stream, inserting a marker wherever one falls inside them. */
    private long put(MemorySegment dst, long d, MemorySegment src, long s, long n) {
        while (n > 0) {
            long chunk = n;
            if (markersEnabled) {
                if (atMarker()) {
                    d = putMarker(dst, d, streamPosition - fpduStart);
                }
                chunk = Math.min(n, Fpdu.MARKER_INTERVAL - (streamPosition & (Fpdu.MARKER_INTERVAL - 1)));
            }
            MemorySegment.copy(src, s, dst, d, chunk);
            d += chunk;
            s += chunk;
            n -= chunk;
            streamPosition += chunk;
        }
        return d;
    }

    /**
     * RFC 5044 §4.3, Figure 3: a marker is 16 reserved bits (0) and the 16-bit FPDUPTR, the
     * distance back from the marker to the start of the FPDU's ULPDU_Length.
     */
    private long putMarker(MemorySegment dst, long d, long fpduPtr) {
        Wire.put32(dst, d, (int) (fpduPtr & 0xFFFF));
        streamPosition += Fpdu.MARKER_LENGTH;
        return d + Fpdu.MARKER_LENGTH;
    }

    private long putCrc(MemorySegment dst, long d, int crcValue) {
        // siw writes 0 in the CRC field when CRC is off (reference §2.5); the RFC leaves it open.
        Crc32c.putWire(dst, d, crcEnabled ? crcValue : 0);
        streamPosition += Fpdu.CRC_LENGTH;
        return d + Fpdu.CRC_LENGTH;
    }
}
