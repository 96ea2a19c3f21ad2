package com.ibm.disni.verbs;

/** The attributes a queue pair is created with ({@code struct ibv_qp_init_attr}); iWARP has RC queue pairs only. */
public class IbvQPInitAttr {
    private long qp_context;
    private IbvCQ send_cq;
    private IbvCQ recv_cq;
    private long srq;
    private final IbvQPCap cap = new IbvQPCap();
    private byte qp_type;
    private byte sq_sig_all;

    public IbvQPInitAttr() {
    }

    public long getQp_context() {
        return qp_context;
    }

    public void setQp_context(long qp_context) {
        this.qp_context = qp_context;
    }

    public long getSrq() {
        return srq;
    }

    public void setSrq(long srq) {
        this.srq = srq;
    }

    public byte getQp_type() {
        return qp_type;
    }

    public void setQp_type(byte qp_type) {
        this.qp_type = qp_type;
    }

    public byte getSq_sig_all() {
        return sq_sig_all;
    }

    public void setSq_sig_all(byte sq_sig_all) {
        this.sq_sig_all = sq_sig_all;
    }

    public IbvCQ getSend_cq() {
        return send_cq;
    }

    public void setSend_cq(IbvCQ send_cq) {
        this.send_cq = send_cq;
    }

    public IbvCQ getRecv_cq() {
        return recv_cq;
    }

    public void setRecv_cq(IbvCQ recv_cq) {
        this.recv_cq = recv_cq;
    }

    public IbvQPCap cap() {
        return cap;
    }
}
