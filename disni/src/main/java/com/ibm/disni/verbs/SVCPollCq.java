package com.ibm.disni.verbs;

/** A prepared {@code ibv_poll_cq} into a fixed array of completions; {@link #getPolls()} is the last count. */
public abstract class SVCPollCq implements StatefulVerbCall<SVCPollCq> {
    public SVCPollCq() {
    }

    public abstract int getPolls();
}
