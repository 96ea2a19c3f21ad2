package com.ibm.disni;

import com.ibm.disni.verbs.IbvQP;
import com.ibm.disni.verbs.IbvQPInitAttr;
import com.ibm.disni.verbs.RdmaCmId;
import java.io.IOException;

/**
 * A group whose endpoints each have a CQ of their own ({@link RdmaCqProvider}) that the program
 * polls, e.g. {@code endpoint.getCqProvider().getCQ().poll(wcList, n).execute()}.
 */
public class RdmaPassiveEndpointGroup<C extends RdmaEndpoint> extends RdmaEndpointGroup<C> {
    private static final int MAX_INLINE = 64;

    private final int maxWR;
    private final int maxSge;
    private final int cqSize;
    private final int timeout;

    /** A new group of plain {@link RdmaEndpoint}s with the given sizes. */
    public RdmaPassiveEndpointGroup<RdmaEndpoint> createDefaultGroup(int timeout, int maxWR, int maxSge, int cqSize)
            throws IOException {
        RdmaPassiveEndpointGroup<RdmaEndpoint> group = new RdmaPassiveEndpointGroup<>(timeout, maxWR, maxSge, cqSize);
        group.init(group.new RawEndpointFactory(group));
        return group;
    }

    public RdmaPassiveEndpointGroup(int timeout, int maxWR, int maxSge, int cqSize) throws IOException {
        super(timeout);
        this.timeout = timeout;
        this.maxWR = maxWR;
        this.maxSge = maxSge;
        this.cqSize = cqSize;
    }

    @Override
    public RdmaCqProvider createCqProvider(C endpoint) throws IOException {
        return new RdmaCqProvider(endpoint.getIdPriv().getVerbs(), cqSize);
    }

    @Override
    public IbvQP createQpProvider(C endpoint) throws IOException {
        RdmaCqProvider provider = endpoint.getCqProvider();
        IbvQPInitAttr attr = new IbvQPInitAttr();
        attr.cap().setMax_recv_sge(maxSge);
        attr.cap().setMax_recv_wr(maxWR);
        attr.cap().setMax_send_sge(maxSge);
        attr.cap().setMax_send_wr(maxWR);
        attr.cap().setMax_inline_data(MAX_INLINE);
        attr.setQp_type(IbvQP.IBV_QPT_RC);
        attr.setRecv_cq(provider.getCQ());
        attr.setSend_cq(provider.getCQ());
        return endpoint.getIdPriv().createQP(endpoint.getPd(), attr);
    }

    @Override
    public void allocateResources(C endpoint) throws Exception {
        endpoint.allocateResources();
    }

    public int getMaxWR() {
        return maxWR;
    }

    public int getMaxSge() {
        return maxSge;
    }

    public int getCqSize() {
        return cqSize;
    }

    int timeout() {
        return timeout;
    }

    /** Makes plain {@link RdmaEndpoint}s. */
    public class RawEndpointFactory implements RdmaEndpointFactory<RdmaEndpoint> {
        private final RdmaPassiveEndpointGroup<RdmaEndpoint> group;

        public RawEndpointFactory(RdmaPassiveEndpointGroup<RdmaEndpoint> group) {
            this.group = group;
        }

        @Override
        public RdmaEndpoint createEndpoint(RdmaCmId idPriv, boolean serverSide) throws IOException {
            return new RdmaEndpoint(group, idPriv, serverSide);
        }
    }
}
