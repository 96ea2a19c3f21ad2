package org.jwarp.stack;

import org.jwarp.wire.fpdu.Mulpdu;
import org.jwarp.wire.mpa.MpaParameters;

/**
 * What connection setup decided for one RDMAP stream (RFC 5044 §7.1, RFC 6581 §9): framing in each
 * direction, the largest ULPDU to send, and the Read queue depths.
 *
 * @param crc        CRC negotiated (both directions, RFC 5044 §7.1.2)
 * @param markersTx  the peer asked for markers in what we send
 * @param markersRx  we asked for markers in what the peer sends
 * @param mulpdu     largest ULPDU we send (from the EMSS, {@link Mulpdu})
 * @param ord        outbound RDMA Read Requests we may have outstanding (≤ peer IRD)
 * @param ird        inbound RDMA Read Requests we accept at once
 * @param rfc7306    whether RFC 7306 messages (immediate data) may be sent and received
 */
public record StreamParameters(boolean crc, boolean markersTx, boolean markersRx, int mulpdu, int ord, int ird,
                               boolean rfc7306) {

    public StreamParameters {
        if (mulpdu < Mulpdu.MINIMUM) {
            throw new IllegalArgumentException("MULPDU " + mulpdu + " is below " + Mulpdu.MINIMUM);
        }
        if (ord < 0 || ird < 0) {
            throw new IllegalArgumentException("ORD/IRD must not be negative");
        }
    }

    /**
     * The stream parameters that follow from MPA's outcome on a TCP connection whose effective MSS
     * is {@code emss} (RFC 5044 §4.5: MULPDU from the EMSS, smaller when we must insert markers).
     */
    public static StreamParameters of(MpaParameters mpa, int emss, boolean rfc7306) {
        return new StreamParameters(mpa.crc(), mpa.markersToPeer(), mpa.markersFromPeer(),
                Mulpdu.of(emss, mpa.markersToPeer()), mpa.ord(), mpa.ird(), rfc7306);
    }
}
