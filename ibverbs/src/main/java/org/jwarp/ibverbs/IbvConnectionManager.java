package org.jwarp.ibverbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.jwarp.verbs.AcceptParams;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventHandler;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.ConnectionManager;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.QpAttr;
import org.jwarp.verbs.QpState;
import org.jwarp.verbs.QueuePair;

/**
 * The connection manager over librdmacm: one event channel per device, read by one daemon thread
 * ({@link CmEventLoop}) that turns {@code rdma_cm_event}s into {@link CmEvent}s. Queue pairs are
 * the provider's own ({@code ibv_create_qp}); they are named to the kernel by number in
 * {@code rdma_conn_param.qp_num}, and the kernel's iWARP CM moves them to RTS and to ERROR.
 */
final class IbvConnectionManager implements ConnectionManager, AutoCloseable {

    /** librdmacm's address and route resolution limit. */
    private static final int RESOLVE_MS = 5000;
    /** rdma_conn_param's retry counts: 7 is "retry for ever" for RNR, the largest for retries (3 bits). */
    private static final byte RETRIES = 7;

    private final IbvDevice device;
    private final RdmaCmLib lib;
    private final MemorySegment channel;
    private final Map<Long, CmConnection> ids = new ConcurrentHashMap<>();
    private final Map<IbvQp, CmConnection> byQp = new ConcurrentHashMap<>();
    private final CmEventLoop loop;

    IbvConnectionManager(IbvDevice device) {
        this.device = device;
        this.lib = RdmaCmLib.get();
        this.channel = IbvDevice.reinterpret(IbvLib.pointer("rdma_create_event_channel", lib.createEventChannel),
                CmStructs.EVENT_CHANNEL.byteSize());
        this.loop = new CmEventLoop(this, lib, channel, channel.get(JAVA_INT, CmStructs.CHANNEL_FD), device.name());
        loop.start();
    }

    @Override
    public Listener listen(InetSocketAddress address, int backlog, CmEventHandler handler) {
        if (backlog < 1 || handler == null) {
            throw new IllegalArgumentException("listen needs a backlog >= 1 and a handler");
        }
        CmConnection conn = create(CmConnection.Role.LISTENER, handler);
        try (Arena arena = Arena.ofConfined()) {
            IbvLib.check("rdma_bind_addr(" + address + ")", lib.bindAddr, conn.id, SockAddr.of(arena, address));
            IbvLib.check("rdma_listen(" + address + ")", lib.listen, conn.id, backlog);
        } catch (RuntimeException e) {
            destroy(conn);
            throw e;
        }
        IbvListener listener = new IbvListener(this, conn);
        conn.listener = listener;
        return listener;
    }

    @Override
    public void connect(InetSocketAddress remote, QueuePair qp, ConnectParams params, CmEventHandler handler) {
        IbvQp q = ownQp(qp);
        if (q.state() != QpState.INIT || byQp.containsKey(q)) {
            throw new IllegalStateException("queue pair " + q.qpNum() + " must be in INIT and unconnected to connect (it is "
                    + q.state() + ")");
        }
        CmConnection conn = create(CmConnection.Role.ACTIVE, handler);
        conn.qp = q;
        conn.remote = remote;
        conn.connectParams = params != null ? params : ConnectParams.of(new byte[0]);
        byQp.put(q, conn);
        try (Arena arena = Arena.ofConfined()) {
            IbvLib.check("rdma_resolve_addr(" + remote + ")", lib.resolveAddr, conn.id, MemorySegment.NULL,
                    SockAddr.of(arena, remote), RESOLVE_MS);
        } catch (RuntimeException e) {
            destroy(conn);
            throw e;
        }
    }

    @Override
    public void disconnect(QueuePair qp) {
        CmConnection conn = byQp.get(ownQp(qp));
        if (conn == null) {
            return;
        }
        // under the connection's lock: the event thread destroys the id on DISCONNECTED, and a
        // rdma_disconnect on a destroyed id reads freed memory
        synchronized (conn) {
            if (conn.established && !conn.destroyed) {
                conn.localDisconnect = true;
                IbvLib.check("rdma_disconnect", lib.disconnect, conn.id);
            }
        }
    }

    void accept(CmConnection conn, QueuePair qp, AcceptParams params) {
        IbvQp q = ownQp(qp);
        if (q.state() != QpState.INIT || byQp.containsKey(q)) {
            throw new IllegalStateException("queue pair " + q.qpNum() + " must be in INIT and unconnected to accept");
        }
        AcceptParams p = params != null ? params : AcceptParams.of(new byte[0]);
        // under the connection's lock, as disconnect: an id destroyed meanwhile (its listener or this
        // connection manager closed) is freed memory to librdmacm
        synchronized (conn) {
            if (conn.destroyed) {
                throw new IllegalStateException("ibverbs: the connection request is gone (its listener or the connection"
                        + " manager was closed)");
            }
            conn.qp = q;
            byQp.put(q, conn);
            try (Arena arena = Arena.ofConfined()) {
                MemorySegment param = connParam(arena, p.privateData(), p.ord(), p.ird(), q.qpNum());
                IbvLib.check("rdma_accept", lib.accept, conn.id, param);
            } catch (RuntimeException e) {
                byQp.remove(q);
                conn.qp = null;
                throw e;
            }
        }
    }

    void reject(CmConnection conn, byte[] privateData) {
        byte[] pd = privateData != null ? privateData : new byte[0];
        try {
            synchronized (conn) {
                if (!conn.destroyed) {
                    try (Arena arena = Arena.ofConfined()) {
                        MemorySegment data = pd.length == 0 ? MemorySegment.NULL : arena.allocateFrom(JAVA_BYTE, pd);
                        IbvLib.check("rdma_reject", lib.reject, conn.id, data, (byte) pd.length);
                    }
                }
            }
        } finally {
            destroy(conn);
        }
    }

    private MemorySegment connParam(Arena arena, byte[] privateData, int ord, int ird, int qpNum) {
        if (privateData.length > 255) {
            throw new IllegalArgumentException("rdma_cm carries at most 255 bytes of private data: " + privateData.length);
        }
        MemorySegment p = arena.allocate(CmStructs.CONN_PARAM);
        if (privateData.length > 0) {
            p.set(ADDRESS, CmStructs.PARAM_PDATA, arena.allocateFrom(JAVA_BYTE, privateData));
        }
        p.set(JAVA_BYTE, CmStructs.PARAM_PDATA_LEN, (byte) privateData.length);
        p.set(JAVA_BYTE, CmStructs.PARAM_RESPONDER_RESOURCES, (byte) Math.min(ird, 255));
        p.set(JAVA_BYTE, CmStructs.PARAM_INITIATOR_DEPTH, (byte) Math.min(ord, 255));
        p.set(JAVA_BYTE, CmStructs.PARAM_RETRY_COUNT, RETRIES);
        p.set(JAVA_BYTE, CmStructs.PARAM_RETRY_COUNT + 1, RETRIES);        // rnr_retry_count follows retry_count
        p.set(JAVA_INT, CmStructs.PARAM_QP_NUM, qpNum);
        return p;
    }

    private CmConnection create(CmConnection.Role role, CmEventHandler handler) {
        device.requireOpen();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment out = arena.allocate(ADDRESS);
            IbvLib.check("rdma_create_id", lib.createId, channel, out, MemorySegment.NULL, CmStructs.RDMA_PS_TCP);
            CmConnection conn = new CmConnection(IbvDevice.reinterpret(out.get(ADDRESS, 0), CmStructs.CM_ID.byteSize()),
                    role, handler);
            ids.put(conn.key(), conn);
            return conn;
        }
    }

    private IbvQp ownQp(QueuePair qp) {
        if (!(qp instanceof IbvQp q) || q.device() != device) {
            throw new IllegalArgumentException("the queue pair belongs to another device");
        }
        return q;
    }

    /** Destroys the id (events of it must be acknowledged: the event thread acknowledges before dispatching). */
    void destroy(CmConnection conn) {
        synchronized (conn) {
            if (conn.destroyed) {
                return;
            }
            conn.destroyed = true;
        }
        ids.remove(conn.key());
        IbvQp q = conn.qp;
        if (q != null) {
            byQp.remove(q, conn);
        }
        IbvLib.call(lib.destroyId, conn.id);
    }

    // ---- events (the event thread) ------------------------------------------------------------

    /** One {@code rdma_cm_event}, copied out before it was acknowledged. */
    record Event(int type, int status, long id, long listenId, MemorySegment newId, byte[] privateData,
                 int initiatorDepth, int responderResources) {
    }

    void dispatch(Event e) {
        switch (e.type()) {
            case 4 -> connectRequest(e);                                          // CONNECT_REQUEST
            default -> {
                CmConnection conn = ids.get(e.id());
                if (conn != null && !conn.destroyed) {
                    onEvent(conn, e);
                }
            }
        }
    }

    private void connectRequest(Event e) {
        CmConnection parent = ids.get(e.listenId());
        CmConnection conn = new CmConnection(IbvDevice.reinterpret(e.newId(), CmStructs.CM_ID.byteSize()),
                CmConnection.Role.PASSIVE, parent != null ? parent.handler : null);
        ids.put(conn.key(), conn);
        if (parent == null || parent.destroyed) {
            reject(conn, null);
            return;
        }
        conn.listener = parent.listener;
        // the peer's initiator depth is its ORD, its responder resources its IRD
        deliver(conn, new CmEvent.ConnectRequest(new IbvConnectionRequest(this, conn, e.privateData(),
                e.initiatorDepth(), e.responderResources())));
    }

    private void onEvent(CmConnection conn, Event e) {
        IbvQp qp = conn.qp;
        String what = lib.eventName(e.type()) + (e.status() != 0 ? " (status " + e.status() + ")" : "");
        switch (e.type()) {
            case 0 -> {                                                           // ADDR_RESOLVED
                try {
                    IbvLib.check("rdma_resolve_route", lib.resolveRoute, conn.id, RESOLVE_MS);
                } catch (IllegalStateException x) {
                    fail(conn, new CmEvent.Unreachable(qp, conn.remote, x.getMessage()));
                }
            }
            case 2 -> {                                                           // ROUTE_RESOLVED
                ConnectParams p = conn.connectParams;
                try (Arena arena = Arena.ofConfined()) {
                    IbvLib.check("rdma_connect", lib.connect, conn.id,
                            connParam(arena, p.privateData(), p.ord(), p.ird(), qp.qpNum()));
                } catch (RuntimeException x) {
                    fail(conn, new CmEvent.ConnectError(qp, CmEvent.ConnectError.Kind.LOCAL, x.getMessage()));
                }
            }
            case 1, 3, 7 -> fail(conn, new CmEvent.Unreachable(qp, conn.remoteAddress(), what));
            case 6 -> fail(conn, new CmEvent.ConnectError(qp, CmEvent.ConnectError.Kind.PROTOCOL, what));
            case 8 -> fail(conn, new CmEvent.Rejected(qp, e.privateData(), what));
            case 9 -> established(conn, qp, e);
            case 10, 11 -> {                                                      // DISCONNECTED, DEVICE_REMOVAL
                if (qp != null) {
                    qp.stateChanged(QpState.ERROR);
                }
                CmEvent.Disconnected.Cause cause = e.type() == 11 ? CmEvent.Disconnected.Cause.CONNECTION_LOST
                        : conn.localDisconnect ? CmEvent.Disconnected.Cause.LOCAL : CmEvent.Disconnected.Cause.PEER_CLOSED;
                boolean wasUp = conn.established;
                conn.established = false;
                destroy(conn);
                if (wasUp) {
                    deliver(conn, new CmEvent.Disconnected(qp, cause, 0));
                }
            }
            default -> {
                // TIMEWAIT_EXIT, ADDR_CHANGE, CONNECT_RESPONSE (not sent for iWARP): nothing to report
            }
        }
    }

    private void established(CmConnection conn, IbvQp qp, Event e) {
        qp.stateChanged(QpState.RTS);
        conn.established = true;
        ConnectParams p = conn.connectParams;
        int ord = p != null ? p.ord() : 0;
        int ird = p != null ? p.ird() : 0;
        QpAttr attr = new QpAttr(ord, ird, e.initiatorDepth(), e.responderResources(), 2, false, false, false, null,
                conn.localAddress(), conn.remoteAddress());
        conn.accepted.complete(null);
        deliver(conn, new CmEvent.Established(qp, attr, e.privateData()));
    }

    private void fail(CmConnection conn, CmEvent event) {
        if (conn.qp != null) {
            conn.qp.stateChanged(QpState.ERROR);
        }
        conn.accepted.completeExceptionally(new IllegalStateException("ibverbs: the connection did not come up: " + event));
        destroy(conn);
        deliver(conn, event);
    }

    private void deliver(CmConnection conn, CmEvent event) {
        if (conn.handler == null) {
            return;
        }
        try {
            conn.handler.onCmEvent(event);
        } catch (RuntimeException x) {
            System.err.println("ibverbs: a CM event handler threw on " + event.getClass().getSimpleName() + ": " + x);
        }
    }


    @Override
    public void close() {
        if (!loop.stop()) {
            // the event thread still reads the channel (or this is that thread): destroying the
            // ids and the channel under it would crash the process; they go with the process
            return;
        }
        for (CmConnection c : ids.values()) {
            destroy(c);
        }
        IbvLib.call(lib.destroyEventChannel, channel);
    }
}
