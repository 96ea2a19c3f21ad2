package com.ibm.disni.verbs;

/**
 * A scatter/gather entry ({@code struct ibv_sge}): a virtual address, a length and the lkey of the
 * registered region the address lies in. jwarp maps the address back to that region when the work
 * request is posted; an address outside it completes with a local protection error.
 */
public class IbvSge {
    protected long addr;
    protected int length;
    protected int lkey;

    public IbvSge() {
    }

    public long getAddr() {
        return addr;
    }

    public void setAddr(long addr) {
        this.addr = addr;
    }

    public int getLength() {
        return length;
    }

    public void setLength(int length) {
        this.length = length;
    }

    public int getLkey() {
        return lkey;
    }

    public void setLkey(int lkey) {
        this.lkey = lkey;
    }

    public String getClassName() {
        return IbvSge.class.getName();
    }
}
