package com.ibm.disni;

import com.ibm.disni.verbs.IbvContext;
import com.ibm.disni.verbs.IbvQP;
import com.ibm.disni.verbs.IbvQPInitAttr;
import java.io.IOException;
import java.util.HashMap;

/**
 * A group whose endpoints share one CQ per device, drained by one {@link RdmaActiveCqProcessor}
 * thread that calls each endpoint's {@link RdmaActiveEndpoint#dispatchCqEvent}. QPs get
 * {@code maxWR} work requests and {@code maxSge} entries each way, and 64 bytes of inline data.
 */
public class RdmaActiveEndpointGroup<C extends RdmaActiveEndpoint> extends RdmaEndpointGroup<C> {
    private static final int MAX_INLINE = 64;

    protected int cqSize;
    protected int maxSge;
    protected int maxWR;
    private final int timeout;
    private final boolean polling;
    private final HashMap<Integer, RdmaActiveCqProcessor<C>> processors = new HashMap<>();

    public RdmaActiveEndpointGroup(int timeout, boolean polling, int maxWR, int maxSge, int cqSize) throws IOException {
        super(timeout);
        this.timeout = timeout;
        this.polling = polling;
        this.maxWR = maxWR;
        this.maxSge = maxSge;
        this.cqSize = cqSize;
    }

    @Override
    public RdmaCqProvider createCqProvider(C endpoint) throws IOException {
        IbvContext context = endpoint.getIdPriv().getVerbs();
        synchronized (processors) {
            RdmaActiveCqProcessor<C> p = processors.get(context.getCmd_fd());
            if (p == null) {
                p = new RdmaActiveCqProcessor<>(context, cqSize, maxWR, 0, 0, timeout, polling);
                processors.put(context.getCmd_fd(), p);
                p.start();
            }
            return p;
        }
    }

    @Override
    public IbvQP createQpProvider(C endpoint) throws IOException {
        @SuppressWarnings("unchecked")
        RdmaActiveCqProcessor<C> processor = (RdmaActiveCqProcessor<C>) endpoint.getCqProvider();
        IbvQPInitAttr attr = new IbvQPInitAttr();
        attr.cap().setMax_recv_sge(maxSge);
        attr.cap().setMax_recv_wr(maxWR);
        attr.cap().setMax_send_sge(maxSge);
        attr.cap().setMax_send_wr(maxWR);
        attr.cap().setMax_inline_data(MAX_INLINE);
        attr.setQp_type(IbvQP.IBV_QPT_RC);
        attr.setRecv_cq(processor.getCQ());
        attr.setSend_cq(processor.getCQ());
        IbvQP qp = endpoint.getIdPriv().createQP(endpoint.getPd(), attr);
        processor.registerQP(qp.getQp_num(), endpoint);
        return qp;
    }

    @Override
    public void allocateResources(C endpoint) throws Exception {
        endpoint.allocateResources();
    }

    /** Closes the endpoints, then the CQ processor threads. */
    @Override
    public void close() throws IOException, InterruptedException {
        super.close();
        synchronized (processors) {
            for (RdmaActiveCqProcessor<C> p : processors.values()) {
                p.close();
            }
            processors.clear();
        }
    }

    public int getMaxWR() {
        return maxWR;
    }

    public int getCqSize() {
        return cqSize;
    }

    public int getMaxSge() {
        return maxSge;
    }
}
