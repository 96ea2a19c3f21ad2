package com.ibm.disni.verbs;

/** A prepared {@code ibv_reg_mr}; each execution registers the memory and {@link #getMr()} is the latest region. */
public abstract class SVCRegMr implements StatefulVerbCall<SVCRegMr> {
    public SVCRegMr() {
    }

    public abstract IbvMr getMr();
}
