package com.ibm.disni.verbs;

import java.io.IOException;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WorkCompletion;

/** {@link SVCPollCq}: polls into preallocated jwarp completions and copies them into the program's {@link IbvWC}s. */
final class PollCqCall extends SVCPollCq {
    private final IbvCQ cq;
    private final IbvWC[] wcList;
    private final WorkCompletion[] scratch;
    private int polls;
    private boolean valid = true;

    PollCqCall(IbvCQ cq, IbvWC[] wcList, int ne) throws IOException {
        if (wcList == null || ne < 0 || ne > wcList.length) {
            throw new IOException("ibv_poll_cq: ne=" + ne + " does not fit the completion array");
        }
        this.cq = cq;
        this.wcList = wcList;
        this.scratch = new WorkCompletion[ne];
        for (int i = 0; i < ne; i++) {
            scratch[i] = new WorkCompletion();
        }
    }

    @Override
    public SVCPollCq execute() throws IOException {
        if (!valid) {
            throw new IOException("SVCPollCq.execute: the call was freed");
        }
        if (!cq.isOpen) {
            throw new IOException("ibv_poll_cq: the CQ is destroyed");
        }
        int n = scratch.length == 0 ? 0 : cq.cq.poll(scratch, scratch.length);
        for (int i = 0; i < n; i++) {
            copy(scratch[i], wcList[i]);
        }
        polls = n;
        return this;
    }

    static void copy(WorkCompletion c, IbvWC w) {
        WcOpcode op = c.opcode();
        w.wr_id = c.wrId();
        w.status = c.status().ibvValue();
        w.opcode = op == null ? 0 : op.ibvValue();
        w.vendor_err = c.vendorErr();
        w.byte_len = (int) c.byteLen();
        w.imm_data = c.immData32();
        w.qp_num = c.qpNum();
        w.wc_flags = c.flags();
        w.isSend = op != null && !op.isRecv();
    }

    @Override
    public int getPolls() {
        return polls;
    }

    @Override
    public boolean isValid() {
        return valid;
    }

    @Override
    public SVCPollCq free() {
        valid = false;
        return this;
    }
}
