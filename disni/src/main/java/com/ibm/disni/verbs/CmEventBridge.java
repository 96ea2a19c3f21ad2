package com.ibm.disni.verbs;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventHandler;

/**
 * Translates the jwarp connection manager's events of one id into DiSNI's, on the id's channel.
 * A connection request makes a new id for the connection (rdma_cm's {@code conn_id}), whose own
 * events come through a bridge of its own on the same channel.
 */
final class CmEventBridge implements CmEventHandler {
    private static final int ECONNREFUSED = 111;
    private static final int ETIMEDOUT = 110;
    private static final int ECONNRESET = 104;

    private final RdmaEventChannel channel;
    private RdmaCmId id;

    CmEventBridge(RdmaEventChannel channel) {
        this.channel = channel;
    }

    void bind(RdmaCmId id) {
        this.id = id;
    }

    @Override
    public void onCmEvent(CmEvent e) {
        try {
            switch (e) {
                case CmEvent.AddressResolved a -> post(RdmaCmEvent.EventType.RDMA_CM_EVENT_ADDR_RESOLVED, 0, null, null);
                case CmEvent.RouteResolved r -> post(RdmaCmEvent.EventType.RDMA_CM_EVENT_ROUTE_RESOLVED, 0, null, null);
                case CmEvent.ConnectRequest r -> {
                    RdmaCmId child = new RdmaCmId(channel, id.verbs, r.request());
                    RdmaCmEvent ev = new RdmaCmEvent(RdmaCmEvent.EventType.RDMA_CM_EVENT_CONNECT_REQUEST.ordinal(), id,
                            child);
                    conn(ev, r.request().privateData(), r.request().peerOrd(), r.request().peerIrd());
                    channel.post(ev);
                }
                case CmEvent.Established est ->
                        post(RdmaCmEvent.EventType.RDMA_CM_EVENT_ESTABLISHED, 0, est.peerPrivateData(), null);
                case CmEvent.Rejected r ->
                        post(RdmaCmEvent.EventType.RDMA_CM_EVENT_REJECTED, -ECONNREFUSED, r.peerPrivateData(), null);
                case CmEvent.Unreachable u -> post(id.resolving()
                        ? RdmaCmEvent.EventType.RDMA_CM_EVENT_ADDR_ERROR
                        : RdmaCmEvent.EventType.RDMA_CM_EVENT_UNREACHABLE, -ETIMEDOUT, null, null);
                case CmEvent.ConnectError c -> post(c.kind() == CmEvent.ConnectError.Kind.TIMEOUT
                        ? RdmaCmEvent.EventType.RDMA_CM_EVENT_UNREACHABLE
                        : RdmaCmEvent.EventType.RDMA_CM_EVENT_CONNECT_ERROR,
                        c.kind() == CmEvent.ConnectError.Kind.TIMEOUT ? -ETIMEDOUT : -ECONNRESET, null, null);
                case CmEvent.Disconnected d -> post(RdmaCmEvent.EventType.RDMA_CM_EVENT_DISCONNECTED, 0, null, null);
            }
        } catch (IOException x) {
            throw new UncheckedIOException(x);
        }
    }

    private void post(RdmaCmEvent.EventType type, int status, byte[] privateData, Object unused) throws IOException {
        RdmaCmEvent ev = new RdmaCmEvent(type.ordinal(), null, id);
        ev.status = status;
        conn(ev, privateData, 0, 0);
        channel.post(ev);
    }

    private static void conn(RdmaCmEvent ev, byte[] privateData, int ord, int ird) {
        RdmaConnParam p = ev.conn;
        p.initiator_depth = (byte) Math.min(ord, 255);
        p.responder_resources = (byte) Math.min(ird, 255);
        if (privateData != null && privateData.length > 0) {
            MemorySegment copy = Arena.ofAuto().allocate(privateData.length);
            MemorySegment.copy(privateData, 0, copy, ValueLayout.JAVA_BYTE, 0, privateData.length);
            ev.privateData = copy;
            p.private_data_addr = copy.address();
            p.private_data_len = (byte) privateData.length;
        }
    }
}
