package org.jwarp.verbs;

import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.CompletionStage;

/**
 * An incoming connection on a {@link Listener}: TCP is connected and a valid MPA Request has
 * arrived (RFC 5044 §7.1.2 rule 2); the MPA Reply is not sent yet. Answer exactly once, from any
 * thread, with {@link #accept} or {@link #reject}. If neither happens within
 * {@link MpaTimeouts#awaitDecision()}, the provider rejects it.
 */
public interface ConnectionRequest {

    /** {@return the listener the request arrived on} */
    Listener listener();

    /** {@return the local address of the TCP connection} */
    InetSocketAddress localAddress();

    /** {@return the initiator's address} */
    InetSocketAddress remoteAddress();

    /** {@return the Request's MPA revision (1 or 2); the Reply uses the same form (RFC 6581 §6)} */
    int mpaRevision();

    /** {@return a copy of the application private data of the Request (without the RFC 6581 header)} */
    byte[] privateData();

    /** {@return whether the initiator sent C=1 (CRC will be on, whatever we answer)} */
    boolean peerRequestsCrc();

    /** {@return whether the initiator sent M=1 (we must put markers in what we send)} */
    boolean peerRequestsMarkers();

    /** {@return the initiator's IRD from the RFC 6581 header (0x3FFF: not negotiated; revision 1: 0x3FFF)} */
    int peerIrd();

    /** {@return the initiator's ORD from the RFC 6581 header (0x3FFF: not negotiated; revision 1: 0x3FFF)} */
    int peerOrd();

    /** {@return the RTR kinds the initiator offered (empty: client/server mode, A=0)} */
    Set<DeviceConfig.RtrKind> peerRtrKinds();

    /**
     * Accepts: binds {@code qp} (which must be in {@link QpState#INIT}, of this device) to the
     * connection and sends the MPA Reply with R=0 and {@code params}' private data. The
     * {@link CmEvent.Established} event follows once the first FPDU or the RTR has arrived.
     *
     * @return completes when the MPA Reply has been handed to TCP; completes exceptionally if it
     *         could not be (the setup failed or timed out first, the peer closed, the parameters
     *         were refused, the device closed). It completes on the engine thread (in
     *         a device that {@linkplain RdmaDevice#needsInvoke() needs its callers}, in a thread's duty cycle: keep
     *         calling {@link RdmaDevice#invoke()} while waiting); keep dependent actions short.
     * @throws IllegalStateException    if already answered or timed out, or {@code qp} is not in INIT
     *                                  or already bound to a connection
     * @throws IllegalArgumentException if the private data is too long for {@link #mpaRevision()}
     * @param qp     the queue pair the connection runs on
     * @param params the Reply's private data and IRD/ORD
     */
    CompletionStage<Void> accept(QueuePair qp, AcceptParams params);

    /**
     * {@code accept(qp, AcceptParams.of(privateData))}.
     *
     * @param qp          the queue pair the connection runs on
     * @param privateData the Reply's private data, or {@code null}
     * @return as {@link #accept(QueuePair, AcceptParams)}
     */
    default CompletionStage<Void> accept(QueuePair qp, byte[] privateData) {
        return accept(qp, AcceptParams.of(privateData));
    }

    /**
     * Rejects: sends an MPA Reply with R=1 carrying {@code privateData} (e.g. a reason), then closes
     * the TCP connection (as siw does; RFC 5044 §7.1.2 leaves closing to the ULP). Closing the
     * device right after still sends a Reply that is under way.
     *
     * @return completes when the Reply has been handed to TCP and the connection closed (a server
     *         that stops after rejecting can wait for it, so that the client learns the reason);
     *         completes exceptionally if the Reply could not be sent (as for {@link #accept})
     * @throws IllegalStateException    if already answered or timed out
     * @throws IllegalArgumentException if the private data is too long
     * @param privateData the Reply's private data, or {@code null}
     */
    CompletionStage<Void> reject(byte[] privateData);

    /**
     * As {@link #accept(QueuePair, AcceptParams)}, with this connection's later events
     * ({@link CmEvent.Established}, {@link CmEvent.ConnectError}, {@link CmEvent.Disconnected}) going
     * to {@code handler} instead of the listener's: rdma_cm's accepted id with an event channel of its
     * own ({@code rdma_migrate_id}). {@link CmId#accept} uses it.
     *
     * @throws UnsupportedOperationException if the provider cannot route one connection's events apart
     * @param qp      the queue pair the connection runs on
     * @param params  the Reply's private data and IRD/ORD
     * @param handler where the connection's later events go
     * @return as {@link #accept(QueuePair, AcceptParams)}
     */
    default CompletionStage<Void> accept(QueuePair qp, AcceptParams params, CmEventHandler handler) {
        throw new UnsupportedOperationException("this provider delivers every accepted connection's events to "
                + "its listener's handler");
    }
}
