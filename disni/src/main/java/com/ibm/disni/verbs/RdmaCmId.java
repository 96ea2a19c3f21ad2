package com.ibm.disni.verbs;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.net.SocketAddress;
import org.jwarp.verbs.AcceptParams;
import org.jwarp.verbs.CmId;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.ConnectionRequest;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QueuePair;

/**
 * A connection manager id ({@code struct rdma_cm_id}) over a jwarp {@link CmId}: the same calls in the
 * same order (bind and listen, or resolve address, resolve route, create the QP, connect; accept on
 * a request's id), its events on its channel. Failures of jwarp's checks (a call in the wrong state,
 * a port in use) throw an IOException with jwarp's one-line reason.
 */
public class RdmaCmId {
    protected int ps;
    protected byte port_num;
    protected RdmaEventChannel cmChannel;
    protected IbvContext verbs;
    protected IbvQP qpObj;
    protected volatile boolean isOpen;
    private final CmId id;
    private InetSocketAddress bound;
    private volatile boolean resolving;

    protected RdmaCmId(RdmaEventChannel cmChannel, IbvContext verbs) throws IOException {
        this(cmChannel, verbs, null);
    }

    RdmaCmId(RdmaEventChannel cmChannel, IbvContext verbs, ConnectionRequest request) throws IOException {
        this.cmChannel = cmChannel;
        this.verbs = verbs;
        this.ps = RdmaCm.RDMA_PS_TCP;
        this.port_num = 1;
        CmEventBridge bridge = new CmEventBridge(cmChannel);
        bridge.bind(this);
        try {
            this.id = request == null ? CmId.create(verbs.device, bridge) : CmId.forRequest(verbs.device, request, bridge);
        } catch (RuntimeException e) {
            throw new IOException("rdma_create_id: " + e.getMessage(), e);
        }
        this.isOpen = true;
    }

    boolean resolving() {
        return resolving;
    }

    public int getPs() {
        return ps;
    }

    public byte getPort_num() {
        return port_num;
    }

    public RdmaEventChannel getCmChannel() {
        return cmChannel;
    }

    /** The device context: over jwarp every id is on the process's one device, bound or not. */
    public IbvContext getVerbs() throws IOException {
        return verbs;
    }

    public IbvQP getQp() {
        return qpObj;
    }

    protected void setQp(IbvQP qpObj) {
        this.qpObj = qpObj;
    }

    protected void setPort_num(byte port_num) {
        this.port_num = port_num;
    }

    protected void setVerbs(IbvContext verbs) {
        this.verbs = verbs;
    }

    public boolean isOpen() {
        return isOpen;
    }

    public void close() {
        if (isOpen) {
            isOpen = false;
            id.close();
        }
    }

    /** Creates the id's RC queue pair; only {@code IBV_QPT_RC} (or 0, the default) is accepted. */
    public IbvQP createQP(IbvPd pd, IbvQPInitAttr attr) throws IOException {
        if (attr.getQp_type() != 0 && attr.getQp_type() != IbvQP.IBV_QPT_RC) {
            throw new IOException("rdma_create_qp: qp_type " + attr.getQp_type() + " is not supported; iWARP has RC only");
        }
        if (attr.getSrq() != 0) {
            throw new IOException("rdma_create_qp: a shared receive queue is not supported through DiSNI's API");
        }
        IbvCQ send = attr.getSend_cq();
        IbvCQ recv = attr.getRecv_cq();
        if (send == null || recv == null) {
            throw new IOException("rdma_create_qp: send_cq and recv_cq must be set");
        }
        IbvQPCap cap = attr.cap();
        try {
            QpInitAttr init = QpInitAttr.builder(send.cq, recv.cq)
                    .maxSendWr(Math.max(1, cap.getMax_send_wr())).maxRecvWr(Math.max(1, cap.getMax_recv_wr()))
                    .maxSendSge(Math.max(1, cap.getMax_send_sge())).maxRecvSge(Math.max(1, cap.getMax_recv_sge()))
                    .maxInlineData(cap.getMax_inline_data()).signalAll(attr.getSq_sig_all() != 0).build();
            QueuePair q = id.createQp(pd.pd, init);
            IbvQP qp = new IbvQP(q.qpNum());
            qp.attach(q, verbs, pd, send, recv);
            setQp(qp);
            return qp;
        } catch (RuntimeException e) {
            throw new IOException("rdma_create_qp: " + e.getMessage(), e);
        }
    }

    /** Remembers the address that {@link #listen(int)} listens on. */
    public void bindAddr(SocketAddress addr) throws IOException {
        bound = inet("rdma_bind_addr", addr);
    }

    public void listen(int backlog) throws IOException {
        if (bound == null) {
            throw new IOException("rdma_listen: the id is not bound (bindAddr first)");
        }
        try {
            id.listen(bound, backlog);
        } catch (RuntimeException e) {
            throw new IOException("rdma_listen on " + bound + ": " + e.getMessage(), e);
        }
    }

    /** Resolves {@code dst}; the source is the kernel's route to it ({@code src} is not used). */
    public void resolveAddr(SocketAddress src, SocketAddress dst, int timeout) throws IOException {
        InetSocketAddress to = inet("rdma_resolve_addr", dst);
        resolving = true;
        try {
            id.resolveAddress(to);
        } catch (RuntimeException e) {
            throw new IOException("rdma_resolve_addr " + to + ": " + e.getMessage(), e);
        } finally {
            resolving = false;
        }
    }

    public void resolveRoute(int timeout) throws IOException {
        try {
            id.resolveRoute();
        } catch (RuntimeException e) {
            throw new IOException("rdma_resolve_route: " + e.getMessage(), e);
        }
    }

    /** Connects; {@code initiator_depth} is the ORD and {@code responder_resources} the IRD offered. */
    public void connect(RdmaConnParam param) throws IOException {
        try {
            id.connect(new ConnectParams(privateData(param), ConnectParams.DEFAULT_TIMEOUT,
                    param.getInitiator_depth() & 0xFF, param.getResponder_resources() & 0xFF));
        } catch (RuntimeException e) {
            throw new IOException("rdma_connect: " + e.getMessage(), e);
        }
    }

    public void accept(RdmaConnParam param) throws IOException {
        try {
            id.accept(new AcceptParams(privateData(param), param.getInitiator_depth() & 0xFF,
                    param.getResponder_resources() & 0xFF));
        } catch (RuntimeException e) {
            throw new IOException("rdma_accept: " + e.getMessage(), e);
        }
    }

    /** Rejects a connection request's id (rdma_reject), with no private data. */
    void reject() throws IOException {
        try {
            id.reject(new byte[0]);
        } catch (RuntimeException e) {
            throw new IOException("rdma_reject: " + e.getMessage(), e);
        }
    }

    public int disconnect() throws IOException {
        try {
            id.disconnect();
        } catch (RuntimeException e) {
            throw new IOException("rdma_disconnect: " + e.getMessage(), e);
        }
        return 0;
    }

    public int destroyId() throws IOException {
        close();
        return 0;
    }

    public int destroyQP() throws IOException {
        if (qpObj != null) {
            qpObj.close();
        }
        return 0;
    }

    public SocketAddress getSource() throws IOException {
        InetSocketAddress a = id.localAddress();
        return a != null ? a : bound;
    }

    public SocketAddress getDestination() throws IOException {
        return id.remoteAddress();
    }

    public int destroyEp() throws IOException {
        destroyQP();
        return destroyId();
    }

    private static InetSocketAddress inet(String call, SocketAddress a) throws IOException {
        if (a instanceof InetSocketAddress i) {
            return i;
        }
        throw new IOException(call + ": needs an InetSocketAddress, not " + a);
    }

    private static byte[] privateData(RdmaConnParam p) {
        int len = p.getPrivate_data_len() & 0xFF;
        if (len == 0 || p.getPrivate_data() == 0) {
            return new byte[0];
        }
        return MemorySegment.ofAddress(p.getPrivate_data()).reinterpret(len).toArray(ValueLayout.JAVA_BYTE);
    }
}
