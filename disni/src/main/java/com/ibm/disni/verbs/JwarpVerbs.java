package com.ibm.disni.verbs;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.util.List;

/** {@link RdmaVerbs} over the objects' own calls. */
final class JwarpVerbs extends RdmaVerbs {

    @Override
    public IbvPd allocPd(IbvContext context) throws IOException {
        return context.allocPd();
    }

    @Override
    public IbvCompChannel createCompChannel(IbvContext context) throws IOException {
        return context.createCompChannel();
    }

    @Override
    public IbvCQ createCQ(IbvContext context, IbvCompChannel compChannel, int ncqe, int comp_vector) throws IOException {
        return context.createCQ(compChannel, ncqe, comp_vector);
    }

    @Override
    public boolean getCqEvent(IbvCompChannel compChannel, IbvCQ cq, int timeout) throws IOException {
        return compChannel.getCqEvent(cq, timeout);
    }

    @Override
    public SVCRegMr regMr(IbvPd pd, ByteBuffer buffer, int access) throws IOException {
        return pd.regMr(buffer, access);
    }

    @Override
    public SVCRegMr regMr(IbvPd pd, long address, int length, int access) throws IOException {
        return pd.regMr(address, length, access);
    }

    @Override
    public int queryOdpSupport(IbvContext context) throws IOException {
        return context.queryOdpSupport();
    }

    @Override
    public int expPrefetchMr(IbvMr mr, long address, int length) throws IOException {
        return mr.expPrefetchMr(address, length);
    }

    @Override
    public SVCDeregMr deregMr(IbvMr mr) throws IOException {
        return mr.deregMr();
    }

    @Override
    public SVCPostSend postSend(IbvQP qp, List<IbvSendWR> wrList, List<IbvSendWR> badwrList) throws IOException {
        return qp.postSend(wrList, badwrList);
    }

    @Override
    public SVCPostRecv postRecv(IbvQP qp, List<IbvRecvWR> wrList, List<IbvRecvWR> badwrList) throws IOException {
        return qp.postRecv(wrList, badwrList);
    }

    @Override
    public SVCPollCq pollCQ(IbvCQ cq, IbvWC[] wcList, int ne) throws IOException {
        return cq.poll(wcList, ne);
    }

    @Override
    public SVCReqNotify reqNotifyCQ(IbvCQ cq, boolean solicited_only) throws IOException {
        return cq.reqNotification(solicited_only);
    }

    @Override
    public int ackCqEvents(IbvCQ cq, int nevents) throws IOException {
        return cq.ackEvents(nevents);
    }

    @Override
    public int destroyCompChannel(IbvCompChannel compChannel) throws IOException {
        return compChannel.destroyCompChannel();
    }

    @Override
    public int deallocPd(IbvPd pd) throws IOException {
        pd.close();
        return 0;
    }

    @Override
    public int destroyCQ(IbvCQ cq) throws IOException {
        return cq.destroyCQ();
    }
}
