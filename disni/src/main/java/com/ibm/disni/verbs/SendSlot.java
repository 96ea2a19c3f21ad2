package com.ibm.disni.verbs;

import java.util.List;

/** A prepared send work request: what {@link SVCPostSend.SendWRMod} and its parts read and change. */
final class SendSlot implements SVCPostSend.SendWRMod, SVCPostSend.RdmaMod {
    long wrId;
    int flags;
    final int opcode;
    long remoteAddr;
    int rkey;
    int reserved;
    final int imm;
    final long atomicAddr;
    final int atomicRkey;
    final long compareAdd;
    final long swap;
    final Sge[] sges;

    SendSlot(IbvSendWR w) {
        wrId = w.getWr_id();
        flags = w.getSend_flags();
        opcode = w.getOpcode();
        remoteAddr = w.getRdma().getRemote_addr();
        rkey = w.getRdma().getRkey();
        reserved = w.getRdma().getReserved();
        imm = w.getImm_data();
        atomicAddr = w.getAtomic().getRemote_addr();
        atomicRkey = w.getAtomic().getRkey();
        compareAdd = w.getAtomic().getCompare_add();
        swap = w.getAtomic().getSwap();
        List<IbvSge> list = w.getSg_list();
        int n = list == null ? 0 : list.size();
        sges = new Sge[n];
        for (int i = 0; i < n; i++) {
            IbvSge s = list.get(i);
            sges[i] = new Sge(s.getAddr(), s.getLength(), s.getLkey());
        }
    }

    /** A prepared scatter/gather entry. */
    static final class Sge implements SVCPostSend.SgeMod {
        long addr;
        int length;
        int lkey;

        Sge(long addr, int length, int lkey) {
            this.addr = addr;
            this.length = length;
            this.lkey = lkey;
        }

        @Override
        public void setAddr(long addr) {
            this.addr = addr;
        }

        @Override
        public long getAddr() {
            return addr;
        }

        @Override
        public void setLength(int length) {
            this.length = length;
        }

        @Override
        public int getLength() {
            return length;
        }

        @Override
        public void setLkey(int lkey) {
            this.lkey = lkey;
        }

        @Override
        public int getLkey() {
            return lkey;
        }
    }

    @Override
    public void setWr_id(long wr_id) {
        this.wrId = wr_id;
    }

    @Override
    public void setSend_flags(int send_flags) {
        this.flags = send_flags;
    }

    @Override
    public long getWr_id() {
        return wrId;
    }

    @Override
    public int getNum_sge() {
        return sges.length;
    }

    @Override
    public int getOpcode() {
        return opcode;
    }

    @Override
    public int getSend_flags() {
        return flags;
    }

    @Override
    public SVCPostSend.RdmaMod getRdmaMod() {
        return this;
    }

    @Override
    public SVCPostSend.SgeMod getSgeMod(int index) {
        return sges[index];
    }

    @Override
    public void setRemote_addr(long remote_addr) {
        this.remoteAddr = remote_addr;
    }

    @Override
    public long getRemote_addr() {
        return remoteAddr;
    }

    @Override
    public void setRkey(int rkey) {
        this.rkey = rkey;
    }

    @Override
    public int getRkey() {
        return rkey;
    }

    @Override
    public void setReserved(int reserved) {
        this.reserved = reserved;
    }

    @Override
    public int getReserved() {
        return reserved;
    }
}
