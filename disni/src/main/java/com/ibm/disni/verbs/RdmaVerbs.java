package com.ibm.disni.verbs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;

/** The verbs as one object; each forwards to the object it names. */
public abstract class RdmaVerbs {
    /** The API level this implementation provides: DiSNI 2.1's. */
    private static final int VERSION = 21;

    public RdmaVerbs() {
    }

    public static RdmaVerbs open() throws IOException {
        return RdmaProvider.provider().openVerbs();
    }

    public static int getVersion() {
        return VERSION;
    }

    public abstract IbvPd allocPd(IbvContext context) throws IOException;

    public abstract IbvCompChannel createCompChannel(IbvContext context) throws IOException;

    public abstract IbvCQ createCQ(IbvContext context, IbvCompChannel compChannel, int ncqe, int comp_vector)
            throws IOException;

    public abstract boolean getCqEvent(IbvCompChannel compChannel, IbvCQ cq, int timeout) throws IOException;

    public abstract SVCRegMr regMr(IbvPd pd, ByteBuffer buffer, int access) throws IOException;

    public abstract SVCRegMr regMr(IbvPd pd, long address, int length, int access) throws IOException;

    public abstract int queryOdpSupport(IbvContext context) throws IOException;

    public abstract int expPrefetchMr(IbvMr mr, long address, int length) throws IOException;

    public abstract SVCDeregMr deregMr(IbvMr mr) throws IOException;

    public abstract SVCPostSend postSend(IbvQP qp, List<IbvSendWR> wrList, List<IbvSendWR> badwrList)
            throws IOException;

    public abstract SVCPostRecv postRecv(IbvQP qp, List<IbvRecvWR> wrList, List<IbvRecvWR> badwrList)
            throws IOException;

    public abstract SVCPollCq pollCQ(IbvCQ cq, IbvWC[] wcList, int ne) throws IOException;

    public abstract SVCReqNotify reqNotifyCQ(IbvCQ cq, boolean solicited_only) throws IOException;

    public abstract int ackCqEvents(IbvCQ cq, int nevents) throws IOException;

    public abstract int destroyCompChannel(IbvCompChannel compChannel) throws IOException;

    public abstract int deallocPd(IbvPd pd) throws IOException;

    public abstract int destroyCQ(IbvCQ cq) throws IOException;
}
