package org.jwarp.wire.fpdu;

/**
 * The FPDU format (RFC 5044 §4.1, Figure 2), one DDP segment per FPDU:
 *
 * <pre>
 * +--------------+------------------------------+---------+--------+
 * | ULPDU_Length |  ULPDU (= one DDP segment)    | PAD 0-3 | CRC 4  |
 * +--------------+------------------------------+---------+--------+
 * </pre>
 *
 * ULPDU_Length counts the ULPDU only; PAD makes (length field + ULPDU + PAD) a multiple of 4; the
 * CRC field is always present, and carries meaning only if CRC was negotiated (RFC 5044 §4.4).
 * Markers (RFC 5044 §4.3), when used, add 4 bytes every 512 bytes of stream.
 */
public final class Fpdu {

    public static final int LENGTH_FIELD = 2;
    public static final int CRC_LENGTH = 4;
    /** Framing overhead without pad or markers: the length field and the CRC. */
    public static final int OVERHEAD = LENGTH_FIELD + CRC_LENGTH;
    /** ULPDU_Length is an unsigned 16-bit field (RFC 5044 §4.1). */
    public static final int MAX_ULPDU_LENGTH = 0xFFFF;

    public static final int MARKER_LENGTH = 4;
    /** RFC 5044 §4.3: a marker is placed every 512 octets of the TCP stream. */
    public static final int MARKER_INTERVAL = 512;

    private Fpdu() {
    }

    /** RFC 5044 §4.1: PAD is 0–3 bytes, so that the FPDU is a multiple of 4 bytes. */
    public static int pad(int ulpduLength) {
        return -(LENGTH_FIELD + ulpduLength) & 3;
    }

    /** Bytes on the wire for one FPDU without markers: length + ULPDU + pad + CRC. */
    public static int length(int ulpduLength) {
        return LENGTH_FIELD + ulpduLength + pad(ulpduLength) + CRC_LENGTH;
    }

    /**
     * Bytes on the wire for one FPDU that starts at marker-relative stream position
     * {@code streamPosition}, counting the markers inserted in it, including a marker at its
     * start (which belongs to it, RFC 5044 §4.3).
     */
    public static long lengthWithMarkers(int ulpduLength, long streamPosition) {
        long body = length(ulpduLength);
        long pos = streamPosition;
        long end = pos;
        long remaining = body;
        // Walk marker slots: a marker sits at every position p with p % 512 == 0.
        while (true) {
            long untilMarker = Math.floorMod(-end, (long) MARKER_INTERVAL);
            if (untilMarker == 0) {
                end += MARKER_LENGTH;
                continue;
            }
            if (remaining <= untilMarker) {
                end += remaining;
                return end - pos;
            }
            end += untilMarker;
            remaining -= untilMarker;
        }
    }
}
