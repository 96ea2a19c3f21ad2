package com.ibm.disni.verbs;

import java.io.IOException;
import java.util.List;
import org.jwarp.disni.Sges;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.SendFlags;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WrOpcode;

/**
 * {@link SVCPostSend}: the work requests are copied into {@link SendSlot}s when the call is prepared,
 * as DiSNI serializes them then; each execution refills preallocated jwarp {@link SendWr}s from the
 * slots, mapping addresses to regions, and posts them. No allocation per execution. A post the
 * queue pair refuses (wrong state, full queue, closed) throws an IOException naming the reason, as
 * DiSNI does when {@code ibv_post_send} returns an error.
 */
final class PostSendCall extends SVCPostSend {
    private static final WrOpcode[] OPCODES = {WrOpcode.RDMA_WRITE, WrOpcode.RDMA_WRITE_WITH_IMM, WrOpcode.SEND,
        WrOpcode.SEND_WITH_IMM, WrOpcode.RDMA_READ, WrOpcode.ATOMIC_CMP_AND_SWP, WrOpcode.ATOMIC_FETCH_AND_ADD};


    private final IbvQP qp;
    private final SendSlot[] slots;
    private final SendWr[] wrs;
    private boolean valid = true;

    PostSendCall(IbvQP qp, List<IbvSendWR> wrList) throws IOException {
        if (qp.qp == null) {
            throw new IOException("ibv_post_send: the queue pair was never created");
        }
        this.qp = qp;
        int n = wrList.size();
        slots = new SendSlot[n];
        wrs = new SendWr[n];
        int i = 0;
        for (IbvSendWR w : wrList) {
            if (w.getOpcode() < 0 || w.getOpcode() >= OPCODES.length) {
                throw new IOException("ibv_post_send: opcode " + w.getOpcode() + " is not an IBV_WR_* value");
            }
            slots[i] = new SendSlot(w);
            wrs[i] = new SendWr(Math.max(1, slots[i].sges.length));
            i++;
        }
    }

    @Override
    public SVCPostSend execute() throws IOException {
        if (!valid) {
            throw new IOException("SVCPostSend.execute: the call was freed");
        }
        for (int i = 0; i < slots.length; i++) {
            fill(slots[i], wrs[i]);
        }
        int status = post(wrs);
        if (!PostStatus.isOk(status)) {
            throw new IOException("ibv_post_send failed: " + PostStatus.toString(status));
        }
        return this;
    }

    private int post(SendWr[] batch) throws IOException {
        try {
            return qp.qp.postSend(batch, batch.length);
        } catch (RuntimeException e) {
            throw new IOException("ibv_post_send: " + e.getMessage(), e);
        }
    }

    private static void fill(SendSlot s, SendWr w) {
        WrOpcode op = OPCODES[s.opcode];
        w.reset().wrId(s.wrId).opcode(op).flags(s.flags & SendFlags.ALL);
        boolean inline = (s.flags & SendFlags.INLINE) != 0;
        for (SendSlot.Sge g : s.sges) {
            Sges.add(w, g.addr, g.length, g.lkey, inline);
        }
        switch (op) {
            case RDMA_WRITE, RDMA_READ -> w.remote(s.remoteAddr, s.rkey);
            case RDMA_WRITE_WITH_IMM -> w.remote(s.remoteAddr, s.rkey).immData(s.imm & 0xFFFF_FFFFL);
            case SEND_WITH_IMM -> w.immData(s.imm & 0xFFFF_FFFFL);
            case ATOMIC_CMP_AND_SWP -> w.remote(s.atomicAddr, s.atomicRkey).compareSwap(s.compareAdd, s.swap);
            case ATOMIC_FETCH_AND_ADD -> w.remote(s.atomicAddr, s.atomicRkey).fetchAdd(s.compareAdd);
            default -> { }
        }
    }

    @Override
    public SendWRMod getWrMod(int index) throws IOException {
        if (index < 0 || index >= slots.length) {
            throw new IOException("SVCPostSend.getWrMod: no work request " + index + " of " + slots.length);
        }
        return slots[index];
    }

    @Override
    public boolean isValid() {
        return valid;
    }

    @Override
    public SVCPostSend free() {
        valid = false;
        return this;
    }
}
