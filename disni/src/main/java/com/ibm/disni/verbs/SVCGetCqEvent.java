package com.ibm.disni.verbs;

/** A prepared {@code ibv_get_cq_event}; DiSNI's API has no call that creates one ({@link IbvCompChannel#getCqEvent} is the way). */
public abstract class SVCGetCqEvent implements StatefulVerbCall<SVCGetCqEvent> {
    public SVCGetCqEvent() {
    }
}
