package org.jwarp.engine.cm;

import java.net.InetSocketAddress;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jwarp.engine.datapath.Connection;
import org.jwarp.engine.provider.JwarpDevice;
import org.jwarp.engine.provider.JwarpQp;
import org.jwarp.verbs.AcceptParams;
import org.jwarp.verbs.CmEventHandler;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.PrivateData;
import org.jwarp.verbs.QpState;
import org.jwarp.verbs.QueuePair;
import org.jwarp.wire.mpa.MpaMessage;
import org.jwarp.wire.mpa.MpaV2Header;
import org.jwarp.wire.mpa.RtrType;

/**
 * A valid MPA Request waiting for the application's decision. Accept or reject may be called on
 * any thread, once; the work is done on the engine thread that owns the connection.
 */
final class JwarpConnectionRequest implements org.jwarp.verbs.ConnectionRequest {

    private final JwarpDevice device;
    private final Connection connection;
    private final MpaMessage request;
    private final InetSocketAddress local;
    private final InetSocketAddress remote;
    private final AtomicBoolean decided = new AtomicBoolean();

    JwarpConnectionRequest(JwarpDevice device, Connection connection) {
        this.device = device;
        this.connection = connection;
        this.request = connection.handshake().request();
        this.local = connection.localAddress();
        this.remote = connection.remoteAddress();
    }

    @Override
    public Listener listener() {
        return connection.listener();
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
        return request.revision();
    }

    @Override
    public byte[] privateData() {
        return connection.handshake().peerPrivateData();
    }

    @Override
    public boolean peerRequestsCrc() {
        return request.crc();
    }

    @Override
    public boolean peerRequestsMarkers() {
        return request.markers();
    }

    @Override
    public int peerIrd() {
        MpaV2Header h = request.enhancedHeader();
        return h == null ? MpaV2Header.NO_NEGOTIATION : h.ird(); // revision 1 negotiates nothing
    }

    @Override
    public int peerOrd() {
        MpaV2Header h = request.enhancedHeader();
        return h == null ? MpaV2Header.NO_NEGOTIATION : h.ord(); // revision 1 negotiates nothing
    }

    @Override
    public Set<DeviceConfig.RtrKind> peerRtrKinds() {
        Set<DeviceConfig.RtrKind> kinds = EnumSet.noneOf(DeviceConfig.RtrKind.class);
        MpaV2Header h = request.enhancedHeader();
        if (h != null) {
            for (RtrType t : h.rtrTypes()) {
                kinds.add(switch (t) {
                    case SEND -> DeviceConfig.RtrKind.SEND;
                    case WRITE -> DeviceConfig.RtrKind.WRITE;
                    case READ -> DeviceConfig.RtrKind.READ;
                });
            }
        }
        return kinds;
    }

    @Override
    public CompletionStage<Void> accept(QueuePair qp, AcceptParams params) {
        if (!(qp instanceof JwarpQp jqp) || qp.device() != device) {
            throw new IllegalArgumentException("the QP does not belong to this device");
        }
        if (qp.state() != QpState.INIT) {
            throw new IllegalStateException("the accepting QP must be in INIT, not " + qp.state());
        }
        PrivateData.checkLength(params.privateDataLength(), request.revision());
        if (!jqp.bind()) {
            throw new IllegalStateException("the QP is already connecting or connected; a QP carries one connection");
        }
        decide();
        CompletableFuture<Void> sent = new CompletableFuture<>();
        device.acceptOn(connection, jqp, params, sent);
        return sent;
    }

    @Override
    public CompletionStage<Void> accept(QueuePair qp, AcceptParams params, CmEventHandler handler) {
        if (handler == null) {
            throw new IllegalArgumentException("the connection's event handler must not be null");
        }
        if (decided.get()) {
            throw new IllegalStateException("this connection request was already accepted or rejected");
        }
        connection.handler(handler);                // before the accept: Established already goes there
        return accept(qp, params);
    }

    @Override
    public CompletionStage<Void> reject(byte[] privateData) {
        PrivateData.checkLength(privateData == null ? 0 : privateData.length, request.revision());
        decide();
        CompletableFuture<Void> sent = new CompletableFuture<>();
        device.rejectOn(connection, privateData == null ? new byte[0] : privateData.clone(), sent);
        return sent;
    }

    private void decide() {
        if (!decided.compareAndSet(false, true)) {
            throw new IllegalStateException("this connection request was already accepted or rejected");
        }
    }
}
