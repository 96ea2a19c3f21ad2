package com.ibm.disni.verbs;

import java.io.IOException;

/**
 * A connection manager event ({@code struct rdma_cm_event}). {@code event} is the ordinal of
 * {@link EventType}, as rdma_cm's values are. As in rdma_cm, the listening id is set only on
 * {@code CONNECT_REQUEST}; the status is 0, or a negative errno for failures (-ECONNREFUSED for a
 * rejection, -ETIMEDOUT for an unreachable peer, -ECONNRESET for a failed MPA exchange).
 */
public class RdmaCmEvent {
    protected int event;
    protected int status;
    protected RdmaCmId listenIdPriv;
    protected RdmaCmId connIdPriv;
    protected RdmaConnParam conn;
    /** Keeps the native copy of the peer's private data alive while the event is. */
    Object privateData;

    /** rdma_cm's event types in their native order. */
    public enum EventType {
        RDMA_CM_EVENT_ADDR_RESOLVED, RDMA_CM_EVENT_ADDR_ERROR, RDMA_CM_EVENT_ROUTE_RESOLVED,
        RDMA_CM_EVENT_ROUTE_ERROR, RDMA_CM_EVENT_CONNECT_REQUEST, RDMA_CM_EVENT_CONNECT_RESPONSE,
        RDMA_CM_EVENT_CONNECT_ERROR, RDMA_CM_EVENT_UNREACHABLE, RDMA_CM_EVENT_REJECTED,
        RDMA_CM_EVENT_ESTABLISHED, RDMA_CM_EVENT_DISCONNECTED, RDMA_CM_EVENT_DEVICE_REMOVAL,
        RDMA_CM_EVENT_MULTICAST_JOIN, RDMA_CM_EVENT_MULTICAST_ERROR, RDMA_CM_EVENT_ADDR_CHANGE,
        RDMA_CM_EVENT_TIMEWAIT_EXIT
    }

    public RdmaCmEvent(int event, RdmaCmId listenIdPriv, RdmaCmId connIdPriv) throws IOException {
        this.event = event;
        this.listenIdPriv = listenIdPriv;
        this.connIdPriv = connIdPriv;
        this.conn = new RdmaConnParam();
    }

    public int getEvent() {
        return event;
    }

    public int getStatus() {
        return status;
    }

    public RdmaCmId getListenIdPriv() {
        return listenIdPriv;
    }

    public RdmaCmId getConnIdPriv() {
        return connIdPriv;
    }

    /** The connection parameters the peer sent: its private data (native address and length), ORD and IRD. */
    public RdmaConnParam getConn() {
        return conn;
    }

    /** jwarp keeps no per-event state to release: acknowledging succeeds at once. */
    public void ackEvent() throws IOException {
    }
}
