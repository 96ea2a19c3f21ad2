package com.ibm.disni;

import com.ibm.disni.util.DiSNILogger;
import com.ibm.disni.verbs.IbvPd;
import com.ibm.disni.verbs.IbvQP;
import com.ibm.disni.verbs.RdmaCm;
import com.ibm.disni.verbs.RdmaCmEvent;
import com.ibm.disni.verbs.RdmaCmId;
import com.ibm.disni.verbs.RdmaConnParam;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * A set of endpoints that share a connection manager thread ({@link RdmaCmProcessor}) and a policy
 * for their CQs and QPs (the subclass's). Events go to the server endpoint of the listening id
 * (connection requests) or to the endpoint of the connection's id (everything else).
 *
 * <p>The group's connection parameters offer an ORD and IRD of 16 (rdma_cm's
 * {@code initiator_depth} and {@code responder_resources}), enough for the RDMA READs DiSNI's
 * examples issue.
 */
public abstract class RdmaEndpointGroup<C extends RdmaEndpoint> {
    private static final byte DEPTH = 16;

    protected RdmaEndpointProvider endpointProvider;
    protected RdmaCmProcessor cmProcessor;
    protected HashMap<RdmaCmId, RdmaServerEndpoint<C>> serverEndpointMap;
    protected HashMap<RdmaCmId, C> clientEndpointMap;
    protected AtomicBoolean closed;
    protected RdmaEndpointFactory<C> factory;
    protected RdmaConnParam connParam;
    private int nextId;

    public abstract RdmaCqProvider createCqProvider(C endpoint) throws IOException;

    public abstract IbvQP createQpProvider(C endpoint) throws IOException;

    public abstract void allocateResources(C endpoint) throws Exception;

    public RdmaEndpointGroup(int timeout) throws IOException {
        this.endpointProvider = RdmaEndpointProvider.getEndpointProvider();
        this.serverEndpointMap = new HashMap<>();
        this.clientEndpointMap = new HashMap<>();
        this.closed = new AtomicBoolean(false);
        this.connParam = new RdmaConnParam();
        connParam.setInitiator_depth(DEPTH);
        connParam.setResponder_resources(DEPTH);
        this.cmProcessor = new RdmaCmProcessor(this, timeout);
        cmProcessor.start();
    }

    public void init(RdmaEndpointFactory<C> factory) {
        this.factory = factory;
    }

    public synchronized IbvPd createProtectionDomain(C endpoint) throws IOException {
        return endpointProvider.createProtectionDomain(endpoint);
    }

    public synchronized IbvPd createProtectionDomain(RdmaServerEndpoint<C> endpoint) throws IOException {
        return endpointProvider.createProtectionDomain(endpoint);
    }

    public final synchronized RdmaServerEndpoint<C> createServerEndpoint() throws IOException {
        checkOpen("createServerEndpoint");
        RdmaCmId id = cmProcessor.createId(RdmaCm.RDMA_PS_TCP);
        RdmaServerEndpoint<C> server = new RdmaServerEndpoint<>(this, id);
        serverEndpointMap.put(id, server);
        return server;
    }

    public final synchronized C createEndpoint() throws IOException {
        checkOpen("createEndpoint");
        return register(cmProcessor.createId(RdmaCm.RDMA_PS_TCP), false);
    }

    /** The endpoint of an incoming connection's id (server side). */
    protected final synchronized C createEndpoint(RdmaCmId idPriv) throws IOException {
        checkOpen("createEndpoint");
        return register(idPriv, true);
    }

    private C register(RdmaCmId id, boolean serverSide) throws IOException {
        if (factory == null) {
            throw new IOException("the endpoint group has no factory: call init(factory) first");
        }
        C endpoint = factory.createEndpoint(id, serverSide);
        clientEndpointMap.put(id, endpoint);
        return endpoint;
    }

    /** Routes a CM event to its server endpoint (connection requests) or connection endpoint. */
    public final void dispatchCmEvent(RdmaCmEvent event) {
        try {
            if (event.getEvent() == RdmaCmEvent.EventType.RDMA_CM_EVENT_CONNECT_REQUEST.ordinal()) {
                RdmaServerEndpoint<C> server;
                synchronized (this) {
                    server = serverEndpointMap.get(event.getListenIdPriv());
                }
                if (server != null) {
                    server.dispatchCmEvent(event);
                }
                return;
            }
            C endpoint;
            synchronized (this) {
                endpoint = clientEndpointMap.get(event.getConnIdPriv());
            }
            if (endpoint != null) {
                endpoint.dispatchCmEvent(event);
            }
        } catch (IOException | RuntimeException e) {
            DiSNILogger.getLogger().warn("CM event " + event.getEvent() + " failed: " + e);
        }
    }

    public RdmaConnParam getConnParam() {
        return connParam;
    }

    /**
     * Closes the group's endpoints and server endpoints, then its connection manager thread. The
     * group's lock is not held meanwhile: the thread dispatches the disconnections through it.
     */
    public void close() throws IOException, InterruptedException {
        if (closed.getAndSet(true)) {
            return;
        }
        List<C> endpoints;
        List<RdmaServerEndpoint<C>> servers;
        synchronized (this) {
            endpoints = new ArrayList<>(clientEndpointMap.values());
            servers = new ArrayList<>(serverEndpointMap.values());
        }
        for (C endpoint : endpoints) {
            endpoint.close();
        }
        for (RdmaServerEndpoint<C> server : servers) {
            server.close();
        }
        cmProcessor.close();
    }

    public boolean isClosed() {
        return closed.get();
    }

    public synchronized int getNextId() {
        return nextId++;
    }

    synchronized void unregister(RdmaEndpoint endpoint) {
        clientEndpointMap.remove(endpoint.getIdPriv());
    }

    synchronized void unregister(RdmaServerEndpoint<?> server) {
        serverEndpointMap.remove(server.getIdPriv());
    }

    @SuppressWarnings("unchecked")
    IbvPd pdFor(RdmaEndpoint endpoint) throws IOException {
        return createProtectionDomain((C) endpoint);
    }

    @SuppressWarnings("unchecked")
    RdmaCqProvider cqFor(RdmaEndpoint endpoint) throws IOException {
        return createCqProvider((C) endpoint);
    }

    @SuppressWarnings("unchecked")
    IbvQP qpFor(RdmaEndpoint endpoint) throws IOException {
        return createQpProvider((C) endpoint);
    }

    @SuppressWarnings("unchecked")
    void allocate(RdmaEndpoint endpoint) throws Exception {
        allocateResources((C) endpoint);
    }

    private void checkOpen(String call) throws IOException {
        if (closed.get()) {
            throw new IOException(call + ": the endpoint group is closed");
        }
    }
}
