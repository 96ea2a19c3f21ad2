package com.ibm.disni.verbs;

import java.io.IOException;
import java.net.SocketAddress;

/** {@link RdmaCm} over the objects' own calls. */
final class JwarpCm extends RdmaCm {

    @Override
    public RdmaEventChannel createEventChannel() throws IOException {
        return RdmaEventChannel.createEventChannel();
    }

    @Override
    public RdmaCmId createId(RdmaEventChannel channel, short ps) throws IOException {
        return channel.createId(ps);
    }

    @Override
    public IbvQP createQP(RdmaCmId id, IbvPd pd, IbvQPInitAttr attr) throws IOException {
        return id.createQP(pd, attr);
    }

    @Override
    public void bindAddr(RdmaCmId id, SocketAddress addr) throws IOException {
        id.bindAddr(addr);
    }

    @Override
    public void listen(RdmaCmId id, int backlog) throws IOException {
        id.listen(backlog);
    }

    @Override
    public void resolveAddr(RdmaCmId id, SocketAddress src, SocketAddress dst, int timeout) throws IOException {
        id.resolveAddr(src, dst, timeout);
    }

    @Override
    public void resolveRoute(RdmaCmId id, int timeout) throws IOException {
        id.resolveRoute(timeout);
    }

    @Override
    public RdmaCmEvent getCmEvent(RdmaEventChannel channel, int timeout) throws IOException {
        return channel.getCmEvent(timeout);
    }

    @Override
    public void connect(RdmaCmId id, RdmaConnParam param) throws IOException {
        id.connect(param);
    }

    @Override
    public void accept(RdmaCmId id, RdmaConnParam param) throws IOException {
        id.accept(param);
    }

    @Override
    public int ackCmEvent(RdmaCmEvent event) {
        return 0;
    }

    @Override
    public int disconnect(RdmaCmId id) throws IOException {
        return id.disconnect();
    }

    @Override
    public int destroyEventChannel(RdmaEventChannel channel) throws IOException {
        return channel.destroyEventChannel();
    }

    @Override
    public int destroyCmId(RdmaCmId id) throws IOException {
        return id.destroyId();
    }

    @Override
    public int destroyQP(RdmaCmId id) throws IOException {
        return id.destroyQP();
    }

    @Override
    public SocketAddress getSrcAddr(RdmaCmId id) throws IOException {
        return id.getSource();
    }

    @Override
    public SocketAddress getDstAddr(RdmaCmId id) throws IOException {
        return id.getDestination();
    }

    @Override
    public int destroyEp(RdmaCmId id) throws IOException {
        return id.destroyEp();
    }
}
