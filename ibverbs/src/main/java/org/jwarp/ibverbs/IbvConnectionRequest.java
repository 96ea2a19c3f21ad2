package org.jwarp.ibverbs;

import java.net.InetSocketAddress;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import org.jwarp.verbs.AcceptParams;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.QueuePair;

/**
 * An incoming request (RDMA_CM_EVENT_CONNECT_REQUEST) on its own {@code rdma_cm_id}. The kernel's
 * MPA negotiation is not visible through librdmacm: the revision is reported as 2, CRC and markers
 * as not requested, and no RTR kinds.
 */
final class IbvConnectionRequest implements org.jwarp.verbs.ConnectionRequest {

    private final IbvConnectionManager cm;
    private final CmConnection conn;
    private final byte[] privateData;
    private final int peerOrd;
    private final int peerIrd;
    private final InetSocketAddress local;
    private final InetSocketAddress remote;

    IbvConnectionRequest(IbvConnectionManager cm, CmConnection conn, byte[] privateData, int peerOrd, int peerIrd) {
        this.cm = cm;
        this.conn = conn;
        this.privateData = privateData;
        this.peerOrd = peerOrd;
        this.peerIrd = peerIrd;
        this.local = conn.localAddress();
        this.remote = conn.remoteAddress();
    }

    @Override
    public Listener listener() {
        return conn.listener;
    }

    @Override
    public InetSocketAddress localAddress() {
        return local;
    }

    @Override
    public InetSocketAddress remoteAddress() {
        return remote;
    }

    @Override
    public int mpaRevision() {
        return 2;
    }

    @Override
    public byte[] privateData() {
        return privateData.clone();
    }

    @Override
    public boolean peerRequestsCrc() {
        return false;
    }

    @Override
    public boolean peerRequestsMarkers() {
        return false;
    }

    @Override
    public int peerIrd() {
        return peerIrd;
    }

    @Override
    public int peerOrd() {
        return peerOrd;
    }

    @Override
    public Set<DeviceConfig.RtrKind> peerRtrKinds() {
        return Set.of();
    }

    @Override
    public CompletionStage<Void> accept(QueuePair qp, AcceptParams params) {
        try {
            cm.accept(conn, qp, params);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return conn.accepted;
    }

    @Override
    public CompletionStage<Void> reject(byte[] privateData) {
        try {
            cm.reject(conn, privateData);
        } catch (RuntimeException e) {
            return CompletableFuture.failedFuture(e);
        }
        return CompletableFuture.completedFuture(null);
    }
}
