package com.ibm.disni.verbs;

import java.util.LinkedList;

/** A receive work request ({@code struct ibv_recv_wr}); the list is read when a post call is prepared. */
public class IbvRecvWR {
    protected long wr_id;
    protected LinkedList<IbvSge> sg_list;
    protected int num_sge;

    public IbvRecvWR() {
    }

    public long getWr_id() {
        return wr_id;
    }

    public void setWr_id(long wr_id) {
        this.wr_id = wr_id;
    }

    public int getNum_sge() {
        return num_sge;
    }

    public void setNum_sge(int num_sge) {
        this.num_sge = num_sge;
    }

    public LinkedList<IbvSge> getSg_list() {
        return sg_list;
    }

    /** Also sets {@code num_sge} to the list's size, as DiSNI does. */
    public void setSg_list(LinkedList<IbvSge> sg_list) {
        this.sg_list = sg_list;
        this.num_sge = sg_list == null ? 0 : sg_list.size();
    }
}
