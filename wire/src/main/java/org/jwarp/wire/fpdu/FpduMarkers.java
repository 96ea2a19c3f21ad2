package org.jwarp.wire.fpdu;

import java.lang.foreign.MemorySegment;
import org.jwarp.wire.Wire;

/**
 * The markers in what the peer sends, for {@link FpduDecoder} (RFC 5044 §4.3): one every 512
 * bytes of stream, collected as they arrive in as many pieces as the stream was split into, and
 * checked against the FPDU framing before they are stripped.
 */
final class FpduMarkers {

    private static final int MASK = Fpdu.MARKER_INTERVAL - 1;

    private final MemorySegment marker = MemorySegment.ofArray(new byte[Fpdu.MARKER_LENGTH]);
    private boolean enabled;
    /** Bytes of the current marker collected so far. */
    private int fill;

    void start(boolean enabled) {
        this.enabled = enabled;
        this.fill = 0;
    }

    boolean enabled() {
        return enabled;
    }

    /** Whether a marker is being collected (some of its bytes are in). */
    boolean partial() {
        return fill > 0;
    }

    /** Whether the next stream byte is (part of) a marker. */
    boolean due(long streamPosition) {
        return enabled && (fill > 0 || (streamPosition & MASK) == 0);
    }

    /** Stream bytes from {@code streamPosition} to the next marker. */
    static int untilNext(long streamPosition) {
        return Fpdu.MARKER_INTERVAL - (int) (streamPosition & MASK);
    }

    /** Collects up to the rest of the marker from {@code window}; returns how many bytes it took. */
    int take(MemorySegment window, long pos, long limit) {
        int n = (int) Math.min(Fpdu.MARKER_LENGTH - fill, limit - pos);
        MemorySegment.copy(window, pos, marker, fill, n);
        fill += n;
        return n;
    }

    /**
     * After {@link #take}: false only if a whole marker just arrived that contradicts the framing.
     * {@code streamPosition} is the position after it; {@code fpduStart} where the FPDU it falls
     * in starts, or -1 between FPDUs.
     */
    boolean holds(long streamPosition, long fpduStart) {
        if (fill < Fpdu.MARKER_LENGTH) {
            return true;
        }
        fill = 0;
        long markerPosition = streamPosition - Fpdu.MARKER_LENGTH;
        // RFC 5044 §4.3: FPDUPTR is the low 16 bits; its two low bits are treated as 0 on receive.
        // A marker between two FPDUs belongs to the next one and points at itself (0).
        int fpduPtr = Wire.u16(marker, 2) & 0xFFFC;
        long expected = fpduStart >= 0 ? (markerPosition - fpduStart) & 0xFFFC : 0;
        return fpduPtr == expected;
    }
}
