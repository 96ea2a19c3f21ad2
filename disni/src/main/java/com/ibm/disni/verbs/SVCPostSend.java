package com.ibm.disni.verbs;

import java.io.IOException;

/**
 * A prepared {@code ibv_post_send} of a list of send work requests. The list is read when the call is
 * prepared; what changes between executions (ids, flags, lengths, addresses) is changed through
 * {@link #getWrMod(int)}.
 */
public abstract class SVCPostSend implements StatefulVerbCall<SVCPostSend> {
    public SVCPostSend() {
    }

    public abstract SendWRMod getWrMod(int index) throws IOException;

    /** A prepared send request. */
    public interface SendWRMod {
        void setWr_id(long wr_id);

        void setSend_flags(int send_flags);

        long getWr_id();

        int getNum_sge();

        int getOpcode();

        int getSend_flags();

        RdmaMod getRdmaMod();

        SgeMod getSgeMod(int index);
    }

    /** The RDMA target of a prepared send request. */
    public interface RdmaMod {
        void setRemote_addr(long remote_addr);

        long getRemote_addr();

        void setRkey(int rkey);

        int getRkey();

        void setReserved(int reserved);

        int getReserved();
    }

    /** A scatter/gather entry of a prepared send request. */
    public interface SgeMod {
        void setAddr(long addr);

        long getAddr();

        void setLength(int length);

        int getLength();

        void setLkey(int lkey);

        int getLkey();
    }
}
