package org.jwarp.verbs;

import java.net.InetSocketAddress;

/**
 * Connection-manager events ({@code rdma_cm_event} for iWARP). Delivered to the
 * {@link CmEventHandler} given to {@code listen} or {@code connect}.
 *
 * <pre>
 * with a CmId: resolveAddress ──► AddressResolved | Unreachable ; resolveRoute ──► RouteResolved ; then connect
 * active side:  connect ──► Established | Rejected | Unreachable | ConnectError ; later Disconnected
 * passive side: ConnectRequest ──accept──► Established | ConnectError ; later Disconnected
 *                              └─reject──► (nothing more)
 *               ConnectError (no ConnectRequest: the client did not speak MPA, sent no Request in
 *                             time, closed, or this side's MPA policy refused it)
 * </pre>
 *
 * <p>Every connection attempt ends its setup with exactly one of these events, whatever ends it
 * (refused, reset, closed, timed out, rejected, a protocol error, the application), and a
 * {@link Disconnected} only ever follows an {@link Established}.
 */
public sealed interface CmEvent {

    /** {@return the queue pair concerned ({@code null} for {@link ConnectRequest}, which has none yet)} */
    QueuePair qp();

    /**
     * Passive side: a valid MPA Request arrived on a listener. Answer with
     * {@link ConnectionRequest#accept} or {@link ConnectionRequest#reject} (from any thread) within
     * {@link MpaTimeouts#awaitDecision()}.
     *
     * @param request the request to answer
     */
    record ConnectRequest(ConnectionRequest request) implements CmEvent {
        @Override
        public QueuePair qp() {
            return null;
        }
    }

    /**
     * The connection is established and the queue pair is in RTS: posts may start. Active side:
     * after the MPA Reply (and, in peer-to-peer mode, after the RTR went out). Passive side: after
     * the first FPDU or the RTR arrived (RFC 5044 §7.1.2 responder fencing).
     *
     * @param peerPrivateData the private data of the peer's MPA frame (Reply on the active side,
     *                        Request on the passive side), without the RFC 6581 header
     * @param qp              the connection's queue pair
     * @param attr            the negotiated attributes (IRD/ORD, CRC, markers, MPA revision)
     */
    record Established(QueuePair qp, QpAttr attr, byte[] peerPrivateData) implements CmEvent {
        /** Keeps a copy of the private data. */
        public Established {
            peerPrivateData = PrivateData.copyOf(peerPrivateData);
        }

        /** {@return a copy of the peer's private data} */
        @Override
        public byte[] peerPrivateData() {
            return peerPrivateData.clone();
        }
    }

    /**
     * Active side: the peer answered with an MPA Reply with R=1 (RFC 5044 §7.1.2 rule 3). The queue
     * pair is in ERROR and has flushed what was posted; a new attempt takes a new queue pair, or this
     * one moved through RESET to INIT ({@link QueuePair#modify}).
     *
     * @param peerPrivateData the Reply's private data (often the reason in the peer's terms)
     * @param reason          a description (e.g. "peer rejected", "peer refused markers")
     * @param qp              the queue pair of the attempt
     */
    record Rejected(QueuePair qp, byte[] peerPrivateData, String reason) implements CmEvent {
        /** Keeps a copy of the private data. */
        public Rejected {
            peerPrivateData = PrivateData.copyOf(peerPrivateData);
        }

        /** {@return a copy of the peer's private data} */
        @Override
        public byte[] peerPrivateData() {
            return peerPrivateData.clone();
        }
    }

    /**
     * Active side: the TCP connection could not be made (refused, no route, TCP timeout).
     *
     * @param qp     the queue pair of the attempt, or {@code null} for an address resolution
     * @param remote the peer's address
     * @param reason a description
     */
    record Unreachable(QueuePair qp, InetSocketAddress remote, String reason) implements CmEvent {
    }

    /**
     * Setup failed after TCP connected. The queue pair is in ERROR. On a listener's handler
     * (rdma_cm's {@code RDMA_CM_EVENT_CONNECT_ERROR}) {@code qp} is {@code null} when the client
     * never got as far as a queue pair: it is not speaking MPA (the reason quotes its first bytes),
     * sent no MPA Request in time, closed during setup, or was refused by this side's MPA policy
     * ({@link Kind#NEGOTIATION}); the reason names the client's address.
     *
     * @param qp     the queue pair of the attempt, or {@code null}
     * @param kind   why setup failed
     * @param reason a description
     */
    record ConnectError(QueuePair qp, Kind kind, String reason) implements CmEvent {
        /** Why setup failed. */
        public enum Kind {
            /** A timeout of {@link ConnectParams#timeout()} or {@link MpaTimeouts} ran out. */
            TIMEOUT,
            /** The peer's MPA frame was malformed (key, revision, length) or it closed TCP during setup. */
            PROTOCOL,
            /** The peer's choices are incompatible with ours: CRC policy, markers, no common RTR, not enough IRD. */
            NEGOTIATION,
            /** This side ended the setup: a disconnect, or the queue pair moved to ERROR or RESET. */
            LOCAL
        }
    }

    /**
     * An established connection ended. The queue pair is in ERROR: outstanding work requests have
     * been (or are being) flushed with {@link WcStatus#WR_FLUSH_ERR}.
     *
     * @param terminate for {@link Cause#TERMINATE_SENT} / {@link Cause#TERMINATE_RECEIVED}, the
     *                  Terminate's error triple in the {@link WorkCompletion#vendorErr()} layout; else 0
     * @param qp        the connection's queue pair
     * @param cause     why the connection ended
     */
    record Disconnected(QueuePair qp, Cause cause, int terminate) implements CmEvent {
        /** Why the connection ended. */
        public enum Cause {
            /** {@link ConnectionManager#disconnect} or a local reset. */
            LOCAL,
            /** The peer closed the TCP connection. */
            PEER_CLOSED,
            /** We sent a Terminate (RFC 5040 §5.4) after a protocol error. */
            TERMINATE_SENT,
            /** The peer sent us a Terminate. */
            TERMINATE_RECEIVED,
            /** TCP failed (reset, timeout). */
            CONNECTION_LOST
        }
    }

    /**
     * A {@link CmId}'s {@link CmId#resolveAddress}: the local address the kernel's route to
     * {@code remote} leaves from ({@code RDMA_CM_EVENT_ADDR_RESOLVED}). A failure is an
     * {@link Unreachable} with no queue pair.
     *
     * @param id     the id
     * @param local  the local address (port 0)
     * @param remote the peer's address
     */
    record AddressResolved(CmId id, InetSocketAddress local, InetSocketAddress remote) implements CmEvent {
        @Override
        public QueuePair qp() {
            return null;
        }
    }

    /**
     * A {@link CmId}'s {@link CmId#resolveRoute} ({@code RDMA_CM_EVENT_ROUTE_RESOLVED}). iWARP runs
     * over TCP: the route is the kernel's, so nothing more is looked up.
     *
     * @param id the id
     */
    record RouteResolved(CmId id) implements CmEvent {
        @Override
        public QueuePair qp() {
            return null;
        }
    }
}
