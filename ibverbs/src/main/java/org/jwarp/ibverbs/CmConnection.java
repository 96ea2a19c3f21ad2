package org.jwarp.ibverbs;

import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.util.concurrent.CompletableFuture;
import org.jwarp.verbs.CmEventHandler;
import org.jwarp.verbs.ConnectParams;

/**
 * One {@code rdma_cm_id} and what the connection manager knows of it: its handler, its queue pair
 * once connected or accepted, the connect parameters waiting for the route, whether the local side
 * asked for the disconnect. Fields are written by the caller's thread before the id can have
 * events, or by the event thread.
 */
final class CmConnection {

    enum Role { ACTIVE, PASSIVE, LISTENER }

    final MemorySegment id;
    final Role role;
    final CmEventHandler handler;
    volatile IbvQp qp;
    volatile InetSocketAddress remote;
    volatile ConnectParams connectParams;
    volatile IbvListener listener;
    volatile boolean established;
    volatile boolean localDisconnect;
    volatile boolean destroyed;
    final CompletableFuture<Void> accepted = new CompletableFuture<>();

    CmConnection(MemorySegment id, Role role, CmEventHandler handler) {
        this.id = id;
        this.role = role;
        this.handler = handler;
    }

    long key() {
        return id.address();
    }

    InetSocketAddress localAddress() {
        return SockAddr.read(id, CmStructs.ID_SRC);
    }

    InetSocketAddress remoteAddress() {
        InetSocketAddress r = SockAddr.read(id, CmStructs.ID_DST);
        return r != null ? r : remote;
    }
}
