package com.ibm.disni.verbs;

import java.io.IOException;
import java.util.List;
import org.jwarp.verbs.QueuePair;

/** An RC queue pair ({@code struct ibv_qp}) over a jwarp {@link QueuePair}; created by {@link RdmaCmId#createQP}. */
public class IbvQP {
    public static final byte IBV_QPT_RC = 2;
    public static final byte IBV_QPT_UC = 3;
    public static final byte IBV_QPT_UD = 4;
    public static final int IBV_QPS_RESET = 0;
    public static final int IBV_QPS_INIT = 1;
    public static final int IBV_QPS_RTR = 2;
    public static final int IBV_QPS_RTS = 3;
    public static final int IBV_QPS_SQD = 4;
    public static final int IBV_QPS_SQE = 5;
    public static final int IBV_QPS_ERR = 6;

    protected IbvContext context;
    protected IbvPd pd;
    protected IbvCQ send_cq;
    protected IbvCQ recv_cq;
    protected int handle;
    protected int qp_num;
    protected int state;
    protected int qp_type;
    protected volatile boolean isOpen;
    QueuePair qp;

    public IbvQP(int handle) throws IOException {
        this.handle = handle;
        this.qp_type = IBV_QPT_RC;
    }

    /** Binds this object to the jwarp queue pair it stands for. */
    void attach(QueuePair q, IbvContext context, IbvPd pd, IbvCQ sendCq, IbvCQ recvCq) {
        this.qp = q;
        this.context = context;
        this.pd = pd;
        this.send_cq = sendCq;
        this.recv_cq = recvCq;
        this.qp_num = q.qpNum();
        this.isOpen = true;
    }

    public IbvContext getContext() {
        return context;
    }

    public IbvPd getPd() {
        return pd;
    }

    public IbvCQ getSend_cq() {
        return send_cq;
    }

    public IbvCQ getRecv_cq() {
        return recv_cq;
    }

    public int getHandle() {
        return handle;
    }

    public int getQp_num() throws IOException {
        return qp_num;
    }

    /** The current state, as an {@code IBV_QPS_*} value. */
    public int getState() {
        return qp == null ? state : qp.state().ibvValue();
    }

    public int getQp_type() {
        return qp_type;
    }

    @Override
    public String toString() {
        return "qp_num=" + qp_num + ", state=" + getState() + ", qp_type=" + qp_type;
    }

    public boolean isOpen() {
        return isOpen;
    }

    public void close() {
        if (isOpen) {
            isOpen = false;
            qp.close();
        }
    }

    /** A prepared post of {@code wrList}; {@code badwrList} is not filled (a failed execution throws instead). */
    public SVCPostSend postSend(List<IbvSendWR> wrList, List<IbvSendWR> badwrList) throws IOException {
        return new PostSendCall(this, wrList);
    }

    /** A prepared post of {@code wrList}; {@code badwrList} is not filled (a failed execution throws instead). */
    public SVCPostRecv postRecv(List<IbvRecvWR> wrList, List<IbvRecvWR> badwrList) throws IOException {
        return new PostRecvCall(this, wrList);
    }
}
