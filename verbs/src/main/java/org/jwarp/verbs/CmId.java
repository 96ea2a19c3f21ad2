package org.jwarp.verbs;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.DatagramChannel;
import java.util.concurrent.CompletionStage;

/**
 * A connection-manager identifier, apart from the queue pair: rdma_cm's {@code rdma_cm_id}. The
 * usual rdma_cm sequence works on it:
 *
 * <pre>{@code
 * // active side                                  // passive side
 * CmId id = CmId.create(device, events);           CmId listening = CmId.create(device, requests);
 * id.resolveAddress(remote);  // AddressResolved   listening.listen(address, backlog);
 * id.resolveRoute();          // RouteResolved     // ConnectRequest r arrives on requests:
 * id.createQp(pd, attr);                           CmId child = CmId.forRequest(device, r.request(), own);
 * id.connect(params);         // Established       child.createQp(pd, attr);
 *                                                  child.accept(params);  // Established arrives on own
 * }</pre>
 *
 * <p>Each id has its own event handler ({@code rdma_create_id}'s event channel), which
 * {@link #migrate} changes ({@code rdma_migrate_id}). An accepted id's events (Established,
 * Disconnected, ...) go to its own handler, not to the listener's.
 *
 * <p>Address resolution asks the kernel which local address its route to the peer leaves from (a
 * connected UDP socket, which sends nothing); an unroutable peer gives an {@link CmEvent.Unreachable}.
 * The route is the kernel's TCP route, so {@link #resolveRoute} only records the step. Both
 * events are delivered on the calling thread before the call returns.
 *
 * <p>Threads: setup calls, from any thread, one at a time per id.
 */
public final class CmId implements AutoCloseable {

    /** Where an id is in the rdma_cm sequence. */
    public enum State {
        /** Created, nothing resolved. */
        IDLE,
        /** {@link #resolveAddress} found the local address. */
        ADDRESS_RESOLVED,
        /** {@link #resolveRoute} ran: ready for {@link #createQp} and {@link #connect}. */
        ROUTE_RESOLVED,
        /** {@link #connect} sent the request; waiting for Established, Rejected or an error. */
        CONNECTING,
        /** {@link #listen} bound the address; requests arrive as events. */
        LISTENING,
        /** The id of an incoming request: ready for {@link #createQp}, then accept or reject. */
        REQUEST,
        /** {@link #accept} ran; waiting for Established. */
        ACCEPTING,
        /** Established: the queue pair is in RTS. */
        CONNECTED,
        /** Disconnected, rejected, unreachable or failed. */
        DISCONNECTED,
        /** {@link #close} ran. */
        CLOSED
    }

    private final RdmaDevice device;
    private final ConnectionRequest request;
    private volatile CmEventHandler handler;
    private volatile State state;
    private volatile InetSocketAddress local;
    private volatile InetSocketAddress remote;
    private volatile QueuePair qp;
    private volatile Listener listener;
    private final CmEventHandler dispatch = this::onEvent;

    private CmId(RdmaDevice device, ConnectionRequest request, CmEventHandler handler, State state) {
        if (device == null || handler == null) {
            throw new IllegalArgumentException("a CmId needs a device and an event handler");
        }
        this.device = device;
        this.request = request;
        this.handler = handler;
        this.state = state;
        if (request != null) {
            this.local = request.localAddress();
            this.remote = request.remoteAddress();
        }
    }

    /**
     * A new id on {@code device} whose events go to {@code handler} ({@code rdma_create_id}).
     *
     * @param device  the device
     * @param handler where the id's events go
     * @return the id, IDLE
     */
    public static CmId create(RdmaDevice device, CmEventHandler handler) {
        return new CmId(device, null, handler, State.IDLE);
    }

    /**
     * The id of an incoming connection request (rdma_cm's new id in a CONNECT_REQUEST event), with
     * {@code handler} for its events: make its queue pair with {@link #createQp}, then
     * {@link #accept} or {@link #reject}.
     *
     * @param device  the device the request arrived on
     * @param request the request, from a {@link CmEvent.ConnectRequest}
     * @param handler where the id's events go
     * @return the id, in state REQUEST
     */
    public static CmId forRequest(RdmaDevice device, ConnectionRequest request, CmEventHandler handler) {
        if (request == null) {
            throw new IllegalArgumentException("no connection request");
        }
        return new CmId(device, request, handler, State.REQUEST);
    }

    /**
     * {@code rdma_resolve_addr}: finds the local address the route to {@code remote} leaves from;
     * then {@link CmEvent.AddressResolved}, or {@link CmEvent.Unreachable} if there is no route.
     *
     * @param remote the peer's IP address and port
     * @throws IllegalStateException    if the id is not IDLE
     * @throws IllegalArgumentException if {@code remote} is unresolved
     */
    public void resolveAddress(InetSocketAddress remote) {
        require(State.IDLE, "resolveAddress");
        if (remote == null || remote.isUnresolved()) {
            throw new IllegalArgumentException("cannot resolve " + remote + ": give an IP address");
        }
        this.remote = remote;
        InetSocketAddress from;
        try (DatagramChannel probe = DatagramChannel.open()) {
            probe.connect(remote);                  // a route lookup; no datagram is sent
            from = new InetSocketAddress(((InetSocketAddress) probe.getLocalAddress()).getAddress(), 0);
        } catch (IOException | RuntimeException e) {
            handler.onCmEvent(new CmEvent.Unreachable(null, remote, "no route: " + e.getMessage()));
            return;
        }
        local = from;
        state = State.ADDRESS_RESOLVED;
        handler.onCmEvent(new CmEvent.AddressResolved(this, from, remote));
    }

    /**
     * {@code rdma_resolve_route}: after {@link #resolveAddress}; then {@link CmEvent.RouteResolved}.
     *
     * @throws IllegalStateException if the address is not resolved
     */
    public void resolveRoute() {
        require(State.ADDRESS_RESOLVED, "resolveRoute");
        state = State.ROUTE_RESOLVED;
        handler.onCmEvent(new CmEvent.RouteResolved(this));
    }

    /**
     * {@code rdma_create_qp}: the id's queue pair, once the route is resolved (active side) or for
     * a request (passive side). {@link #close} destroys it.
     *
     * @param pd   the protection domain
     * @param attr the queue pair's attributes
     * @return the queue pair
     * @throws IllegalStateException if the route is not resolved and there is no request, or the id has a queue pair
     */
    public QueuePair createQp(ProtectionDomain pd, QpInitAttr attr) {
        if (state != State.ROUTE_RESOLVED && state != State.REQUEST) {
            throw new IllegalStateException("createQp needs a resolved route or a connection request; the id is "
                    + state);
        }
        if (qp != null) {
            throw new IllegalStateException("the id already has a queue pair");
        }
        QueuePair q = device.createQp(pd, attr);
        qp = q;
        return q;
    }

    /**
     * {@code rdma_connect}: after {@link #createQp}; events as {@link ConnectionManager#connect}.
     *
     * @param params the MPA parameters and private data
     * @throws IllegalStateException if the route is not resolved or there is no queue pair
     */
    public void connect(ConnectParams params) {
        require(State.ROUTE_RESOLVED, "connect");
        if (qp == null) {
            throw new IllegalStateException("connect needs the id's queue pair: createQp first");
        }
        state = State.CONNECTING;
        device.connectionManager().connect(remote, qp, params, dispatch);
    }

    /**
     * {@code rdma_bind_addr} and {@code rdma_listen}: connection requests arrive as {@link CmEvent.ConnectRequest}.
     *
     * @param address the local address to listen on
     * @param backlog how many connection setups may be pending at once (see {@link ConnectionManager#listen})
     * @throws IllegalStateException if the id is not IDLE
     */
    public void listen(InetSocketAddress address, int backlog) {
        require(State.IDLE, "listen");
        Listener l = device.connectionManager().listen(address, backlog, dispatch);
        listener = l;
        local = l.localAddress();
        state = State.LISTENING;
    }

    /**
     * {@code rdma_accept} on a request's id: its events go to this id's handler from now on.
     *
     * @param params the MPA parameters and private data of the reply
     * @return completes when the MPA Reply has been handed to TCP
     * @throws IllegalStateException if the id is not a request's or has no queue pair
     */
    public CompletionStage<Void> accept(AcceptParams params) {
        require(State.REQUEST, "accept");
        if (qp == null) {
            throw new IllegalStateException("accept needs the id's queue pair: createQp first");
        }
        state = State.ACCEPTING;
        return request.accept(qp, params, dispatch);
    }

    /**
     * {@code rdma_reject} on a request's id.
     *
     * @param privateData the reply's private data, or {@code null}
     * @return completes when the MPA Reply with R=1 has been handed to TCP and the connection closed
     * @throws IllegalStateException if the id is not a request's
     */
    public CompletionStage<Void> reject(byte[] privateData) {
        require(State.REQUEST, "reject");
        state = State.DISCONNECTED;
        return request.reject(privateData);
    }

    /**
     * {@code rdma_migrate_id}: this id's events go to {@code newHandler} from now on.
     *
     * @param newHandler the new handler
     */
    public void migrate(CmEventHandler newHandler) {
        if (newHandler == null) {
            throw new IllegalArgumentException("the event handler must not be null");
        }
        handler = newHandler;
    }

    /** {@code rdma_disconnect}: see {@link ConnectionManager#disconnect}. */
    public void disconnect() {
        QueuePair q = qp;
        if (q != null) {
            device.connectionManager().disconnect(q);
        }
    }

    /** {@return where the id is in the rdma_cm sequence} */
    public State state() {
        return state;
    }

    /** {@return the id's queue pair, or {@code null} before {@link #createQp}} */
    public QueuePair qp() {
        return qp;
    }

    /** {@return the device} */
    public RdmaDevice device() {
        return device;
    }

    /** {@return the local address: resolved, listened on, or of the request} */
    public InetSocketAddress localAddress() {
        return local;
    }

    /** {@return the peer's address, once resolved or requested} */
    public InetSocketAddress remoteAddress() {
        return remote;
    }

    /** {@code rdma_destroy_qp} and {@code rdma_destroy_id}: stops listening and destroys the id's queue pair. */
    @Override
    public void close() {
        if (state == State.CLOSED) {
            return;
        }
        state = State.CLOSED;
        Listener l = listener;
        if (l != null) {
            l.close();
        }
        QueuePair q = qp;
        if (q != null) {
            q.close();
        }
    }

    private void onEvent(CmEvent e) {
        // a listening id only passes its requests (and failed setups) on: its state stays LISTENING
        switch (state == State.LISTENING ? null : e) {
            case null -> { }
            case CmEvent.Established est -> state = State.CONNECTED;
            case CmEvent.Disconnected d -> state = State.DISCONNECTED;
            case CmEvent.Rejected r -> state = State.DISCONNECTED;
            case CmEvent.Unreachable u -> state = State.DISCONNECTED;
            case CmEvent.ConnectError c -> state = State.DISCONNECTED;
            default -> { }
        }
        handler.onCmEvent(e);
    }

    private void require(State expected, String what) {
        if (state != expected) {
            throw new IllegalStateException(what + " needs the id " + expected + "; it is " + state);
        }
    }

    @Override
    public String toString() {
        return "CmId{" + state + ", " + local + " -> " + remote + (qp != null ? ", QP " + qp.qpNum() : "") + '}';
    }
}
