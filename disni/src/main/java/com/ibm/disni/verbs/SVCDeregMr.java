package com.ibm.disni.verbs;

/** A prepared {@code ibv_dereg_mr}. */
public abstract class SVCDeregMr implements StatefulVerbCall<SVCDeregMr> {
    public SVCDeregMr() {
    }
}
