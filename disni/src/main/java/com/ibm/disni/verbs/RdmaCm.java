package com.ibm.disni.verbs;

import java.io.IOException;
import java.net.SocketAddress;

/** rdma_cm's calls as one object; each forwards to the id, channel or event it names. */
public abstract class RdmaCm {
    public static final short RDMA_PS_IPOIB = 2;
    public static final short RDMA_PS_TCP = 262;
    public static final short RDMA_PS_UDP = 273;

    public RdmaCm() {
    }

    public static RdmaCm open() throws IOException {
        return RdmaProvider.provider().openCm();
    }

    public abstract RdmaEventChannel createEventChannel() throws IOException;

    public abstract RdmaCmId createId(RdmaEventChannel channel, short ps) throws IOException;

    public abstract IbvQP createQP(RdmaCmId id, IbvPd pd, IbvQPInitAttr attr) throws IOException;

    public abstract void bindAddr(RdmaCmId id, SocketAddress addr) throws IOException;

    public abstract void listen(RdmaCmId id, int backlog) throws IOException;

    public abstract void resolveAddr(RdmaCmId id, SocketAddress src, SocketAddress dst, int timeout) throws IOException;

    public abstract void resolveRoute(RdmaCmId id, int timeout) throws IOException;

    public abstract RdmaCmEvent getCmEvent(RdmaEventChannel channel, int timeout) throws IOException;

    public abstract void connect(RdmaCmId id, RdmaConnParam param) throws IOException;

    public abstract void accept(RdmaCmId id, RdmaConnParam param) throws IOException;

    public abstract int ackCmEvent(RdmaCmEvent event);

    public abstract int disconnect(RdmaCmId id) throws IOException;

    public abstract int destroyEventChannel(RdmaEventChannel channel) throws IOException;

    public abstract int destroyCmId(RdmaCmId id) throws IOException;

    public abstract int destroyQP(RdmaCmId id) throws IOException;

    public abstract SocketAddress getSrcAddr(RdmaCmId id) throws IOException;

    public abstract SocketAddress getDstAddr(RdmaCmId id) throws IOException;

    public abstract int destroyEp(RdmaCmId id) throws IOException;
}
