package org.jwarp.wire.fpdu;

/**
 * MULPDU, the largest ULPDU an MPA sender gives DDP, from the effective TCP MSS (RFC 5044 §4.5,
 * §12.1.1 "Maximum ULPDU Length"; RFC 5041 §5.2 requires every DDP segment to fit in one FPDU).
 */
public final class Mulpdu {

    /** RFC 5044 §4.5: MPA MUST NOT give DDP a MULPDU below 128 even if the EMSS shrinks. */
    public static final int MINIMUM = 128;

    private Mulpdu() {
    }

    /**
     * RFC 5044 §4.5: without markers, MULPDU = EMSS - (6 + EMSS mod 4). With markers the worst
     * case adds one marker per 512 bytes: MULPDU = EMSS - (6 + 4 * ceil(EMSS / 512) + EMSS mod 4).
     * The result is at least {@link #MINIMUM} and at most 65535 (the ULPDU_Length field).
     */
    public static int of(int emss, boolean markers) {
        if (emss <= 0) {
            throw new IllegalArgumentException("EMSS must be positive: " + emss);
        }
        int overhead = Fpdu.OVERHEAD + emss % 4;
        if (markers) {
            overhead += Fpdu.MARKER_LENGTH * ((emss + Fpdu.MARKER_INTERVAL - 1) / Fpdu.MARKER_INTERVAL);
        }
        return Math.min(Math.max(emss - overhead, MINIMUM), Fpdu.MAX_ULPDU_LENGTH);
    }
}
