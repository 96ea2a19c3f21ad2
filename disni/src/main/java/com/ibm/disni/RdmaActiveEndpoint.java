package com.ibm.disni;

import com.ibm.disni.verbs.IbvWC;
import com.ibm.disni.verbs.RdmaCmId;
import java.io.IOException;

/** An endpoint of an {@link RdmaActiveEndpointGroup}: its completions arrive, on the group's CQ thread, at {@link #dispatchCqEvent}. */
public abstract class RdmaActiveEndpoint extends RdmaEndpoint {

    public RdmaActiveEndpoint(RdmaActiveEndpointGroup<? extends RdmaActiveEndpoint> group, RdmaCmId idPriv,
            boolean serverSide) throws IOException {
        super(group, idPriv, serverSide);
    }

    /** Called for each completion of this endpoint's QP; the {@link IbvWC} is reused after the call returns. */
    public abstract void dispatchCqEvent(IbvWC wc) throws IOException;

    @Override
    public void close() throws IOException, InterruptedException {
        super.close();
    }
}
