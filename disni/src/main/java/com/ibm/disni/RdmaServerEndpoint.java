package com.ibm.disni;

import com.ibm.disni.verbs.IbvMr;
import com.ibm.disni.verbs.IbvPd;
import com.ibm.disni.verbs.RdmaCmEvent;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.SVCRegMr;
import java.io.IOException;
import java.net.SocketAddress;
import java.nio.ByteBuffer;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A listening endpoint: {@link #bind} listens, each connection request makes an endpoint through the
 * group's factory, and {@link #accept()} hands them out connected, in arrival order.
 */
public class RdmaServerEndpoint<C extends RdmaEndpoint> {
    protected int endpointId;
    protected IbvPd pd;
    protected RdmaCmId idPriv;
    protected int access;
    private final RdmaEndpointGroup<C> group;
    private final LinkedBlockingQueue<C> requests = new LinkedBlockingQueue<>();
    private boolean bound;
    private volatile boolean closed;

    public RdmaServerEndpoint(RdmaEndpointGroup<C> group, RdmaCmId idPriv) {
        this.group = group;
        this.idPriv = idPriv;
        this.endpointId = group.getNextId();
        this.access = IbvMr.IBV_ACCESS_LOCAL_WRITE | IbvMr.IBV_ACCESS_REMOTE_WRITE | IbvMr.IBV_ACCESS_REMOTE_READ;
    }

    /** Listens on {@code src} with a backlog of {@code backlog} requests. */
    public synchronized RdmaServerEndpoint<C> bind(SocketAddress src, int backlog) throws Exception {
        if (closed) {
            throw new IOException("bind: the server endpoint is closed");
        }
        if (bound) {
            throw new IOException("bind: the server endpoint is already bound");
        }
        idPriv.bindAddr(src);
        idPriv.listen(backlog);
        pd = group.createProtectionDomain(this);
        bound = true;
        return this;
    }

    /** The next connection, accepted and established; blocks until a request comes. */
    public C accept() throws IOException {
        try {
            C endpoint = null;
            while (endpoint == null) {
                if (closed) {
                    throw new IOException("accept: the server endpoint is closed");
                }
                endpoint = requests.poll(100, TimeUnit.MILLISECONDS);
            }
            endpoint.accept();
            return endpoint;
        } catch (IOException e) {
            throw e;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("accept interrupted", e);
        } catch (Exception e) {
            throw new IOException("accept: " + e.getMessage(), e);
        }
    }

    /** Turns a connection request into an endpoint for {@link #accept()}. */
    public synchronized void dispatchCmEvent(RdmaCmEvent event) throws IOException {
        if (event.getEvent() == RdmaCmEvent.EventType.RDMA_CM_EVENT_CONNECT_REQUEST.ordinal()) {
            requests.add(group.createEndpoint(event.getConnIdPriv()));
        }
    }

    public synchronized void close() throws IOException, InterruptedException {
        if (closed) {
            return;
        }
        closed = true;
        idPriv.destroyId();
        group.unregister(this);
    }

    public synchronized boolean isBound() {
        return bound;
    }

    public synchronized boolean isClosed() {
        return closed;
    }

    public SocketAddress getSrcAddr() throws Exception {
        return idPriv.getSource();
    }

    public RdmaCmId getIdPriv() {
        return idPriv;
    }

    public int getEndpointId() {
        return endpointId;
    }

    public IbvPd getPd() {
        return pd;
    }

    public SVCRegMr registerMemory(ByteBuffer buffer) throws IOException {
        return pd.regMr(buffer, access);
    }

    public void deregisterMemory(IbvMr mr) throws IOException {
        mr.deregMr().execute().free();
    }
}
