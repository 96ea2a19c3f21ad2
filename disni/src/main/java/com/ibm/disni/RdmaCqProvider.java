package com.ibm.disni;

import com.ibm.disni.verbs.IbvCQ;
import com.ibm.disni.verbs.IbvCompChannel;
import com.ibm.disni.verbs.IbvContext;
import java.io.IOException;

/** A completion queue with its channel, polled by its owner (a passive endpoint) or by a {@link RdmaCqProcessor}. */
public class RdmaCqProvider {
    protected IbvContext context;
    protected IbvCompChannel compChannel;
    protected IbvCQ cq;
    protected int cqSize;
    private boolean closed;

    public RdmaCqProvider(IbvContext context, int cqSize) throws IOException {
        if (context == null) {
            throw new IOException("RdmaCqProvider: no device context");
        }
        this.context = context;
        this.cqSize = cqSize;
        this.compChannel = context.createCompChannel();
        this.cq = context.createCQ(compChannel, cqSize, 0);
    }

    public void close() throws IOException, InterruptedException {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        cq.destroyCQ();
        compChannel.destroyCompChannel();
    }

    public IbvCQ getCQ() {
        return cq;
    }

    public int getCqSize() {
        return cqSize;
    }
}
