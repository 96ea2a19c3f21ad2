package com.ibm.disni.verbs;

import java.io.IOException;

/** {@link SVCReqNotify} over {@code CompletionQueue.requestNotify}. */
final class ReqNotifyCall extends SVCReqNotify {
    private final IbvCQ cq;
    private final boolean solicitedOnly;
    private boolean valid = true;

    ReqNotifyCall(IbvCQ cq, boolean solicitedOnly) {
        this.cq = cq;
        this.solicitedOnly = solicitedOnly;
    }

    @Override
    public SVCReqNotify execute() throws IOException {
        if (!valid) {
            throw new IOException("SVCReqNotify.execute: the call was freed");
        }
        try {
            cq.cq.requestNotify(solicitedOnly);
        } catch (RuntimeException e) {
            throw new IOException("ibv_req_notify_cq: " + e.getMessage(), e);
        }
        return this;
    }

    @Override
    public boolean isValid() {
        return valid;
    }

    @Override
    public SVCReqNotify free() {
        valid = false;
        return this;
    }
}
