package com.ibm.disni.verbs;

import java.io.IOException;

/** A prepared {@code ibv_post_recv} of a list of receive work requests. */
public abstract class SVCPostRecv implements StatefulVerbCall<SVCPostRecv> {
    public SVCPostRecv() {
    }

    public abstract RecvWRMod getWrMod(int index) throws IOException;

    /** A prepared receive request. */
    public interface RecvWRMod {
        long getWr_id();
    }
}
