package com.ibm.disni.verbs;

/** A prepared {@code ibv_req_notify_cq}. */
public abstract class SVCReqNotify implements StatefulVerbCall<SVCReqNotify> {
    public SVCReqNotify() {
    }
}
