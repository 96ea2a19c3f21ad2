package com.ibm.disni;

import com.ibm.disni.verbs.IbvContext;
import com.ibm.disni.verbs.IbvWC;
import java.io.IOException;

/** The CQ processor of an {@link RdmaActiveEndpointGroup}: each completion goes to its endpoint's {@code dispatchCqEvent}. */
public class RdmaActiveCqProcessor<C extends RdmaActiveEndpoint> extends RdmaCqProcessor<C> {

    public RdmaActiveCqProcessor(IbvContext context, int cqSize, int wrSize, long affinity, int clusterId, int timeout,
            boolean polling) throws IOException {
        super(context, cqSize, wrSize, affinity, clusterId, timeout, polling);
    }

    @Override
    public void dispatchCqEvent(C endpoint, IbvWC wc) throws IOException {
        endpoint.dispatchCqEvent(wc);
    }
}
