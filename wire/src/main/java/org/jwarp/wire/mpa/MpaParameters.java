package org.jwarp.wire.mpa;

import java.util.Arrays;
import java.util.Objects;
import java.util.Optional;

/**
 * What MPA connection setup settled for one side of the connection; the output of
 * {@link MpaNegotiation} that the full-operation phase runs with.
 *
 * @param revision the MPA revision of the exchange (the Request's)
 * @param enhanced the RFC 6581 header was exchanged (IRD/ORD and RTR were negotiated)
 * @param crc CRC32c generated and checked in both directions (RFC 5044 §4.4: C=1 in either frame)
 * @param markersToPeer our sender inserts markers (the peer's frame had M=1)
 * @param markersFromPeer the peer inserts markers into what we receive (our frame had M=1)
 * @param ird our inbound RDMA Read queue depth, or 0x3FFF if the ULP sets it
 * @param ord our outbound RDMA Read queue depth, or 0x3FFF if the ULP sets it
 * @param peerIrd the IRD the peer's frame carried, 0x3FFF if none (passed up to the ULP, RFC 6581 §9.1)
 * @param peerOrd the ORD the peer's frame carried, 0x3FFF if none
 * @param rtr peer-to-peer only: for the initiator, the RTR it sends as its first FPDU; for the
 *     responder, the RTR it waits for before it sends anything (RFC 6581 §5)
 * @param peerPrivateData the ULP private data of the peer's frame, after any enhanced header
 */
public record MpaParameters(int revision, boolean enhanced, boolean crc, boolean markersToPeer,
        boolean markersFromPeer, int ird, int ord, int peerIrd, int peerOrd, Optional<RtrType> rtr,
        byte[] peerPrivateData) {

    public MpaParameters {
        Objects.requireNonNull(rtr, "rtr");
        peerPrivateData = peerPrivateData.clone();
    }

    /** True if the connection starts with an RTR (RFC 6581 peer-to-peer model). */
    public boolean peerToPeer() {
        return rtr.isPresent();
    }

    @Override
    public byte[] peerPrivateData() {
        return peerPrivateData.clone();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MpaParameters p && revision == p.revision && enhanced == p.enhanced
                && crc == p.crc && markersToPeer == p.markersToPeer
                && markersFromPeer == p.markersFromPeer && ird == p.ird && ord == p.ord
                && peerIrd == p.peerIrd && peerOrd == p.peerOrd && rtr.equals(p.rtr)
                && Arrays.equals(peerPrivateData, p.peerPrivateData);
    }

    @Override
    public int hashCode() {
        return Objects.hash(revision, enhanced, crc, markersToPeer, markersFromPeer, ird, ord,
                peerIrd, peerOrd, rtr, Arrays.hashCode(peerPrivateData));
    }

    @Override
    public String toString() {
        return "MpaParameters[rev=" + revision + (enhanced ? " enhanced" : "") + " crc=" + crc
                + " markersToPeer=" + markersToPeer + " markersFromPeer=" + markersFromPeer
                + " ird=" + ird + " ord=" + ord + " peerIrd=" + peerIrd + " peerOrd=" + peerOrd
                + " rtr=" + rtr.map(Enum::name).orElse("none")
                + " peerPrivateData=" + peerPrivateData.length + " bytes]";
    }
}
