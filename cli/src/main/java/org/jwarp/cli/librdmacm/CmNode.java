package org.jwarp.cli.librdmacm;

import java.lang.foreign.Arena;
import org.jwarp.engine.provider.JwarpConfig;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CmId;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendFlags;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;

/**
 * One connection of the librdmacm examples, as they set it up: an rdma_cm id, a QP whose send
 * and receive queues have CQs of their own, and one message buffer used for every send and
 * receive (the examples neither fill nor check it).
 */
final class CmNode {

    final CmId id;
    final CompletionQueue sendCq;
    final CompletionQueue recvCq;
    final QueuePair qp;
    final MemoryRegion mr;
    private final int size;
    private final boolean inline;
    private final RecvWr recv = new RecvWr(1);
    private final SendWr send = new SendWr(1);
    private final WorkCompletion[] wcs = {new WorkCompletion(), new WorkCompletion(), new WorkCompletion(),
            new WorkCompletion(), new WorkCompletion(), new WorkCompletion(), new WorkCompletion(), new WorkCompletion()};

    /** The QP and buffer on {@code id}: {@code depth} work requests each way, messages of {@code size}. */
    CmNode(CmId id, ProtectionDomain pd, Arena arena, int depth, int size, boolean inline) {
        RdmaDevice dev = id.device();
        this.id = id;
        this.size = size;
        this.inline = inline && size <= dev.config().limits().maxInline();
        sendCq = dev.createCq(Math.max(1, depth), null);
        recvCq = dev.createCq(Math.max(1, depth), null);
        qp = id.createQp(pd, QpInitAttr.builder(sendCq, recvCq).maxSendWr(Math.max(1, depth)).maxRecvWr(Math.max(1, depth))
                .maxSendSge(1).maxRecvSge(1).maxInlineData(this.inline ? size : 0).build());
        mr = pd.registerMemory(arena.allocate(Math.max(1, size), 64), Access.LOCAL_WRITE);
    }

    void postRecvs(int n) {
        for (int i = 0; i < n; i++) {
            recv.clearSges().wrId(i).addSge(mr, 0, size);
            check(qp.postRecv(recv), "posting a receive");
        }
    }

    /** Posts {@code n} signaled SENDs of the message (every send signaled, as the examples' sq_sig_all). */
    void postSends(int n) {
        for (int i = 0; i < n; i++) {
            send.reset().opcode(WrOpcode.SEND).wrId(i);
            if (inline) {
                send.flags(SendFlags.INLINE | SendFlags.SIGNALED).addInlineSge(mr.segment(), 0, size);
            } else {
                send.signaled(true).addSge(mr, 0, size);
            }
            check(qp.postSend(send), "posting a send");
        }
    }

    /**
     * Waits for {@code n} successful completions on {@code cq} (receives: of {@code size} bytes).
     *
     * @throws LibrdmacmException with one line on an error completion or when {@code deadlineNanos} passes
     */
    void await(CompletionQueue cq, int n, long deadlineNanos, String what) {
        int done = 0;
        while (done < n) {
            int got = cq.poll(wcs);
            for (int i = 0; i < got; i++) {
                WorkCompletion wc = wcs[i];
                if (wc.status() != WcStatus.SUCCESS) {
                    throw new LibrdmacmException(what + " failed: " + wc.status() + " (connection " + qp.state() + ")");
                }
                if (cq == recvCq && wc.byteLen() != size) {
                    throw new LibrdmacmException("received " + wc.byteLen() + " bytes where " + size + " were expected:"
                            + " give both sides the same -S");
                }
            }
            done += got;
            if (got == 0) {
                if (System.nanoTime() - deadlineNanos > 0) {
                    throw new LibrdmacmException(what + ": " + done + " of " + n + " completions before the timeout");
                }
                // without an engine thread of its own the device progresses when its application calls in
                if (JwarpConfig.of(id.device().config()).threadingMode() != JwarpConfig.ThreadingMode.DEDICATED) {
                    id.device().invoke();
                }
                Thread.yield();
            }
        }
    }

    private void check(int rc, String what) {
        if (rc != PostStatus.OK) {
            throw new LibrdmacmException(what + " failed: " + PostStatus.toString(rc) + " (connection " + qp.state() + ")");
        }
    }

    /**
     * Closes the id and its QP, the CQs, and deregisters the buffer: the QP goes before the memory it
     * may still receive into, and the memory's arena can close only after the region is gone (the
     * ibverbs provider keeps it open until then).
     */
    void close() {
        id.close();
        sendCq.close();
        recvCq.close();
        mr.deregister();
    }
}
