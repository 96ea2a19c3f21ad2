package com.ibm.disni.verbs;

import java.io.IOException;

/**
 * Connection parameters ({@code struct rdma_conn_param}). The private data is named by a native
 * address and length, as in rdma_cm: jwarp reads those bytes when the parameters are used.
 * {@code initiator_depth} is the ORD and {@code responder_resources} the IRD sent in the MPA
 * exchange (RFC 6581); the retry counts are InfiniBand's and have no meaning over TCP.
 */
public class RdmaConnParam {
    protected long private_data_addr;
    protected byte private_data_len;
    protected byte responder_resources;
    protected byte initiator_depth;
    protected byte flow_control;
    protected byte retry_count;
    protected byte rnr_retry_count;
    protected byte srq;
    protected int qp_num;

    public RdmaConnParam() {
    }

    public long getPrivate_data() {
        return private_data_addr;
    }

    public void setPrivate_data(long private_data_addr) throws IOException {
        this.private_data_addr = private_data_addr;
    }

    public byte getPrivate_data_len() {
        return private_data_len;
    }

    public void setPrivate_data_len(byte private_data_len) {
        this.private_data_len = private_data_len;
    }

    public byte getResponder_resources() {
        return responder_resources;
    }

    public void setResponder_resources(byte responder_resources) throws IOException {
        this.responder_resources = responder_resources;
    }

    public byte getInitiator_depth() {
        return initiator_depth;
    }

    public void setInitiator_depth(byte initiator_depth) throws IOException {
        this.initiator_depth = initiator_depth;
    }

    public byte getFlow_control() {
        return flow_control;
    }

    public void setFlow_control(byte flow_control) throws IOException {
        this.flow_control = flow_control;
    }

    public byte getRetry_count() {
        return retry_count;
    }

    public void setRetry_count(byte retry_count) throws IOException {
        this.retry_count = retry_count;
    }

    public byte getRnr_retry_count() {
        return rnr_retry_count;
    }

    public void setRnr_retry_count(byte rnr_retry_count) {
        this.rnr_retry_count = rnr_retry_count;
    }

    public byte getSrq() {
        return srq;
    }

    public void setSrq(byte srq) throws IOException {
        this.srq = srq;
    }

    public int getQp_num() {
        return qp_num;
    }

    public void setQp_num(int qp_num) throws IOException {
        this.qp_num = qp_num;
    }
}
