package com.ibm.disni;

import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvPd;
import com.ibm.disni.verbs.IbvQP;
import com.ibm.disni.verbs.IbvRecvWR;
import com.ibm.disni.verbs.IbvSendWR;
import com.ibm.disni.verbs.RdmaCmEvent;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaConnParam;
import com.ibm.disni.verbs.SVCPostRecv;
import com.ibm.disni.verbs.SVCPostSend;
import com.ibm.disni.verbs.SVCRegMr;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.List;

/**
 * A connection: its id, protection domain, CQ provider and QP. The client side {@link #connect}s; the
 * server side is returned, connected, by {@link RdmaServerEndpoint#accept()}. Resources are
 * allocated through the group ({@link RdmaEndpointGroup#allocateResources}), which calls
 * {@link #allocateResources()}, which calls {@link #init()} once the QP exists and before the
 * connection is made: the place to register memory and post the first receives.
 *
 * <p>{@link #getConnState()} is one of: 0 initialized, 1 address resolved, 2 route resolved,
 * 3 resources allocated, 4 connected, 5 closed, 6 failed (an error event during connect or accept).
 * A failed {@code connect} throws an IOException naming the event.
 */
public class RdmaEndpoint {
    static final int INITIALIZED = 0;
    static final int ADDR_RESOLVED = 1;
    static final int ROUTE_RESOLVED = 2;
    static final int RESOURCES_ALLOCATED = 3;
    static final int CONNECTED = 4;
    static final int CLOSED = 5;
    static final int FAILED = 6;
    private static final long DISCONNECT_WAIT_MS = 1000;

    protected int endpointId;
    protected RdmaEndpointGroup<? extends RdmaEndpoint> group;
    protected RdmaCmId idPriv;
    protected IbvQP qp;
    protected IbvPd pd;
    protected RdmaCqProvider cqProcessor;
    protected int access;
    private final boolean serverSide;
    private int connState;
    private boolean allocated;
    private String failure;

    protected RdmaEndpoint(RdmaEndpointGroup<? extends RdmaEndpoint> group, RdmaCmId idPriv, boolean serverSide)
            throws IOException {
        this.group = group;
        this.idPriv = idPriv;
        this.serverSide = serverSide;
        this.endpointId = group.getNextId();
        this.access = IbvMr.IBV_ACCESS_LOCAL_WRITE | IbvMr.IBV_ACCESS_REMOTE_WRITE | IbvMr.IBV_ACCESS_REMOTE_READ;
        this.connState = INITIALIZED;
    }

    /** Resolves {@code dst}, allocates resources through the group, connects, and returns once established. */
    public synchronized void connect(SocketAddress dst, int timeout) throws Exception {
        if (connState != INITIALIZED) {
            throw new IOException("connect: the endpoint is already connected or closed (state " + connState + ")");
        }
        idPriv.resolveAddr(null, dst, timeout);
        await(ADDR_RESOLVED, "connect to " + dst);
        idPriv.resolveRoute(timeout);
        await(ROUTE_RESOLVED, "connect to " + dst);
        group.allocate(this);
        await(RESOURCES_ALLOCATED, "connect to " + dst);
        idPriv.connect(getConnParam());
        await(CONNECTED, "connect to " + dst);
    }

    /** The server side of {@link RdmaServerEndpoint#accept()}: allocate through the group, accept, await the connection. */
    synchronized void accept() throws Exception {
        group.allocate(this);
        await(RESOURCES_ALLOCATED, "accept");
        idPriv.accept(getConnParam());
        await(CONNECTED, "accept");
    }

    private void await(int state, String what) throws IOException, InterruptedException {
        while (connState < state) {
            wait();
        }
        if (connState == FAILED || connState == CLOSED && state != CLOSED) {
            throw new IOException(what + " failed: " + (failure != null ? failure : "endpoint closed"));
        }
    }

    /** Advances the connection state on the id's events; subclasses that override it call it. */
    public synchronized void dispatchCmEvent(RdmaCmEvent event) throws IOException {
        RdmaCmEvent.EventType type = RdmaCmEvent.EventType.values()[event.getEvent()];
        switch (type) {
            case RDMA_CM_EVENT_ADDR_RESOLVED -> advance(ADDR_RESOLVED);
            case RDMA_CM_EVENT_ROUTE_RESOLVED -> advance(ROUTE_RESOLVED);
            case RDMA_CM_EVENT_ESTABLISHED -> advance(CONNECTED);
            case RDMA_CM_EVENT_DISCONNECTED -> connState = connState == CONNECTED ? CLOSED : Math.max(connState, CLOSED);
            case RDMA_CM_EVENT_ADDR_ERROR, RDMA_CM_EVENT_ROUTE_ERROR, RDMA_CM_EVENT_UNREACHABLE,
                    RDMA_CM_EVENT_REJECTED, RDMA_CM_EVENT_CONNECT_ERROR -> {
                failure = type.name() + " (status " + event.getStatus() + ")";
                connState = FAILED;
            }
            default -> { }
        }
        notifyAll();
    }

    private void advance(int state) {
        if (connState < state) {
            connState = state;
        }
    }

    /** Creates the PD, CQ provider and QP through the group and calls {@link #init()}; once. */
    public final synchronized void allocateResources() throws IOException {
        if (allocated) {
            return;
        }
        pd = group.pdFor(this);
        cqProcessor = group.cqFor(this);
        qp = group.qpFor(this);
        allocated = true;
        init();
        advance(RESOURCES_ALLOCATED);
        notifyAll();
    }

    /**
     * Disconnects (waiting briefly for the peer's side to be done), then releases the QP and the id,
     * and the CQ if it is the endpoint's own.
     */
    public synchronized void close() throws IOException, InterruptedException {
        if (connState == CLOSED && !idPriv.isOpen()) {
            return;
        }
        if (connState == CONNECTED) {
            idPriv.disconnect();
            long deadline = System.currentTimeMillis() + DISCONNECT_WAIT_MS;
            while (connState == CONNECTED && System.currentTimeMillis() < deadline) {
                wait(Math.max(1, deadline - System.currentTimeMillis()));
            }
        }
        connState = CLOSED;
        if (cqProcessor instanceof RdmaCqProcessor<?> shared) {
            shared.unregister(this);
        }
        idPriv.destroyQP();
        idPriv.destroyId();
        if (cqProcessor != null && !(cqProcessor instanceof RdmaCqProcessor<?>)) {
            cqProcessor.close();
        }
        group.unregister(this);
        notifyAll();
    }

    public synchronized boolean isConnected() {
        return connState == CONNECTED;
    }

    public synchronized boolean isClosed() {
        return connState == CLOSED;
    }

    public SocketAddress getSrcAddr() throws IOException {
        return idPriv.getSource();
    }

    public SocketAddress getDstAddr() throws IOException {
        return idPriv.getDestination();
    }

    public RdmaCqProvider getCqProvider() {
        return cqProcessor;
    }

    /** A prepared registration of the whole buffer with the endpoint's access rights (local write, remote read and write). */
    public SVCRegMr registerMemory(ByteBuffer buffer) throws IOException {
        return pd.regMr(buffer, access);
    }

    public SVCPostRecv postRecv(List<IbvRecvWR> wrList) throws IOException {
        return qp.postRecv(wrList, null);
    }

    public SVCPostSend postSend(List<IbvSendWR> wrList) throws IOException {
        return qp.postSend(wrList, null);
    }

    public void deregisterMemory(IbvMr mr) throws IOException {
        mr.deregMr().execute().free();
    }

    public RdmaCmId getIdPriv() {
        return idPriv;
    }

    public IbvQP getQp() {
        return qp;
    }

    public boolean isServerSide() {
        return serverSide;
    }

    public int getEndpointId() {
        return endpointId;
    }

    public IbvPd getPd() {
        return pd;
    }

    /** Called once the QP exists and before the connection is made; does nothing unless overridden. */
    protected synchronized void init() throws IOException {
    }

    public int getConnState() {
        return connState;
    }

    public RdmaConnParam getConnParam() {
        return group.getConnParam();
    }
}
