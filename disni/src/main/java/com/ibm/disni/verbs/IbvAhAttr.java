package com.ibm.disni.verbs;

/** An address vector ({@code struct ibv_ah_attr}): InfiniBand addressing, carried but unused over iWARP. */
public class IbvAhAttr {
    protected IbvGlobalRoute grh;
    protected short dlid;
    protected byte sl;
    protected byte src_path_bits;
    protected byte static_rate;
    protected byte is_global;
    protected byte port_num;

    protected IbvAhAttr(IbvGlobalRoute grh) {
        this.grh = grh;
    }

    public IbvGlobalRoute getGrh() {
        return grh;
    }

    public void setGrh(IbvGlobalRoute grh) {
        this.grh = grh;
    }

    public short getDlid() {
        return dlid;
    }

    public void setDlid(short dlid) {
        this.dlid = dlid;
    }

    public byte getSl() {
        return sl;
    }

    public void setSl(byte sl) {
        this.sl = sl;
    }

    public byte getSrc_path_bits() {
        return src_path_bits;
    }

    public void setSrc_path_bits(byte src_path_bits) {
        this.src_path_bits = src_path_bits;
    }

    public byte getStatic_rate() {
        return static_rate;
    }

    public void setStatic_rate(byte static_rate) {
        this.static_rate = static_rate;
    }

    public byte getIs_global() {
        return is_global;
    }

    public void setIs_global(byte is_global) {
        this.is_global = is_global;
    }

    public byte getPort_num() {
        return port_num;
    }

    public void setPort_num(byte port_num) {
        this.port_num = port_num;
    }
}
