package org.jwarp.verbs;

import java.net.InetSocketAddress;

/**
 * What a connection negotiated, reported when it is established ({@link CmEvent.Established}) and
 * by {@link QueuePair#connectionAttr()}.
 *
 * @param ord             our outbound RDMA Read / atomic depth after RFC 6581 §9.1 negotiation
 *                        (at most the peer's IRD)
 * @param ird             our inbound RDMA Read / atomic depth (at least the peer's ORD)
 * @param peerOrd         the ORD the peer reported (0x3FFF: the peer did not negotiate)
 * @param peerIrd         the IRD the peer reported
 * @param mpaRevision     MPA revision in use (1 or 2)
 * @param crc             whether MPA CRC32c is generated and checked (RFC 5044 §7.1.1: C=1 in either frame)
 * @param markersTx       whether we insert markers in what we send (the peer sent M=1)
 * @param markersRx       whether the peer inserts markers in what it sends us (we sent M=1)
 * @param rtr             the RTR message used in peer-to-peer mode, or {@code null} in client/server mode
 * @param localAddress    the local TCP endpoint
 * @param remoteAddress   the peer's TCP endpoint
 */
public record QpAttr(int ord, int ird, int peerOrd, int peerIrd, int mpaRevision, boolean crc, boolean markersTx,
                     boolean markersRx, DeviceConfig.RtrKind rtr, InetSocketAddress localAddress,
                     InetSocketAddress remoteAddress) {

    /**
     * Validates the attributes.
     *
     * @throws IllegalArgumentException if the revision is not 1 or 2, a depth is negative or an address is null
     */
    public QpAttr {
        if (mpaRevision != 1 && mpaRevision != 2) {
            throw new IllegalArgumentException("mpaRevision must be 1 or 2: " + mpaRevision);
        }
        if (ord < 0 || ird < 0 || peerOrd < 0 || peerIrd < 0) {
            throw new IllegalArgumentException("ORD/IRD must be >= 0");
        }
        if (localAddress == null || remoteAddress == null) {
            throw new IllegalArgumentException("a connection has both endpoints");
        }
    }
}
