package com.ibm.disni.verbs;

/** A global route header ({@code struct ibv_global_route}): InfiniBand addressing, carried but unused over iWARP. */
public class IbvGlobalRoute {
    protected byte[] dgid;
    protected int flow_label;
    protected byte sgid_index;
    protected byte hop_limit;
    protected byte traffic_class;

    protected IbvGlobalRoute() {
        dgid = new byte[16];
    }

    public int getFlow_label() {
        return flow_label;
    }

    public void setFlow_label(int flow_label) {
        this.flow_label = flow_label;
    }

    public byte getSgid_index() {
        return sgid_index;
    }

    public void setSgid_index(byte sgid_index) {
        this.sgid_index = sgid_index;
    }

    public byte getHop_limit() {
        return hop_limit;
    }

    public void setHop_limit(byte hop_limit) {
        this.hop_limit = hop_limit;
    }

    public byte getTraffic_class() {
        return traffic_class;
    }

    public void setTraffic_class(byte traffic_class) {
        this.traffic_class = traffic_class;
    }

    public byte[] getDgid() {
        return dgid;
    }

    public void setDgid(byte[] dgid) {
        this.dgid = dgid;
    }
}
