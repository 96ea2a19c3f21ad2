package com.ibm.disni.verbs;

/** The capacities of a queue pair ({@code struct ibv_qp_cap}). */
public class IbvQPCap {
    private int max_send_wr;
    private int max_recv_wr;
    private int max_send_sge;
    private int max_recv_sge;
    private int max_inline_data;

    protected IbvQPCap() {
    }

    public int getMax_send_wr() {
        return max_send_wr;
    }

    public void setMax_send_wr(int max_send_wr) {
        this.max_send_wr = max_send_wr;
    }

    public int getMax_recv_wr() {
        return max_recv_wr;
    }

    public void setMax_recv_wr(int max_recv_wr) {
        this.max_recv_wr = max_recv_wr;
    }

    public int getMax_send_sge() {
        return max_send_sge;
    }

    public void setMax_send_sge(int max_send_sge) {
        this.max_send_sge = max_send_sge;
    }

    public int getMax_recv_sge() {
        return max_recv_sge;
    }

    public void setMax_recv_sge(int max_recv_sge) {
        this.max_recv_sge = max_recv_sge;
    }

    public int getMax_inline_data() {
        return max_inline_data;
    }

    public void setMax_inline_data(int max_inline_data) {
        this.max_inline_data = max_inline_data;
    }
}
