package org.jwarp.ibverbs;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.jwarp.ibverbs.QpStructs.WC;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.jwarp.verbs.CompletionChannel;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;

/**
 * A completion queue ({@code ibv_create_cq}). {@link #poll} calls the context's {@code poll_cq}
 * into a preallocated array of {@code ibv_wc} and copies each into the caller's
 * {@link WorkCompletion}s: no allocation per poll.
 */
final class IbvCq implements CompletionQueue {

    /** Completions fetched per poll_cq call. */
    static final int BATCH = 32;
    /** ibv_wc_flags. */
    private static final int IBV_WC_WITH_IMM = 1 << 1;
    private static final int IBV_WC_WITH_INV = 1 << 3;
    private static final WcOpcode[] OPCODES = opcodes();

    private final IbvDevice device;
    private final IbvChannel channel;
    private final MemorySegment cq;
    private final int depth;
    private final int handle;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment wcs;
    private final MemorySegment pollFn;
    private final MemorySegment notifyFn;
    private int users;
    private boolean closed;

    IbvCq(IbvDevice device, int depth, IbvChannel channel) {
        this.device = device;
        this.channel = channel;
        this.cq = IbvDevice.reinterpret(IbvLib.pointer("ibv_create_cq(" + depth + ")", device.lib().createCq,
                device.context(), depth, MemorySegment.NULL, channel == null ? MemorySegment.NULL : channel.pointer(), 0),
                VerbsStructs.CQ.byteSize());
        this.depth = cq.get(JAVA_INT, VerbsStructs.CQ_CQE);
        this.handle = cq.get(JAVA_INT, VerbsStructs.CQ_HANDLE);
        this.wcs = arena.allocate(WC, BATCH);
        this.pollFn = IbvLib.op(device.context(), VerbsStructs.CONTEXT_POLL_CQ);
        this.notifyFn = IbvLib.op(device.context(), VerbsStructs.CONTEXT_REQ_NOTIFY_CQ);
        if (channel != null) {
            channel.attach(this);
        }
        device.adopt(this);
    }

    MemorySegment pointer() {
        return cq;
    }

    synchronized void use(int delta) {
        users += delta;
    }

    @Override
    public IbvDevice device() {
        return device;
    }

    @Override
    public int handle() {
        return handle;
    }

    @Override
    public int depth() {
        return depth;
    }

    @Override
    public CompletionChannel channel() {
        return channel;
    }

    @Override
    public int poll(WorkCompletion[] out, int max) {
        if (max < 0 || max > out.length) {
            throw new IndexOutOfBoundsException("max " + max + " for " + out.length + " completions");
        }
        int n = 0;
        while (n < max) {
            int ask = Math.min(BATCH, max - n);
            int got;
            try {
                got = (int) IbvLib.POLL_CQ.invokeExact(pollFn, cq, ask, wcs);
            } catch (Throwable t) {
                throw new IllegalStateException("ibverbs: poll_cq failed", t);
            }
            if (got < 0) {
                throw new IllegalStateException("ibverbs: poll_cq on CQ " + handle + " failed (" + got + ")");
            }
            for (int i = 0; i < got; i++) {
                copy(wcs, i * WC.byteSize(), out[n + i]);
            }
            n += got;
            if (got < ask) {
                break;
            }
        }
        return n;
    }

    /** Copies the {@code ibv_wc} at {@code at}; an error completion's opcode is undefined (verbs.h), so SEND stands in. */
    static void copy(MemorySegment wcs, long at, WorkCompletion out) {
        int flags = wcs.get(JAVA_INT, at + QpStructs.WC_FLAGS);
        WcStatus status = WcStatus.ofIbv(wcs.get(JAVA_INT, at + QpStructs.WC_STATUS));
        WcOpcode opcode = OPCODES[wcs.get(JAVA_INT, at + QpStructs.WC_OPCODE) & 0xFF];
        out.reset();
        out.wrId(wcs.get(JAVA_LONG, at + QpStructs.WC_WR_ID))
                .status(status != null ? status : WcStatus.GENERAL_ERR)
                .opcode(opcode != null && status == WcStatus.SUCCESS ? opcode : WcOpcode.SEND)
                .byteLen(wcs.get(JAVA_INT, at + QpStructs.WC_BYTE_LEN) & 0xFFFFFFFFL)
                .qpNum(wcs.get(JAVA_INT, at + QpStructs.WC_QP_NUM))
                .vendorErr(wcs.get(JAVA_INT, at + QpStructs.WC_VENDOR_ERR));
        int word = wcs.get(JAVA_INT, at + QpStructs.WC_IMM_DATA);
        if ((flags & IBV_WC_WITH_IMM) != 0) {
            out.immData(Integer.reverseBytes(word) & 0xFFFFFFFFL);        // __be32 on the wire
        }
        if ((flags & IBV_WC_WITH_INV) != 0) {
            out.invalidatedRkey(word);
        }
    }

    @Override
    public void requestNotify(boolean solicitedOnly) {
        if (channel == null) {
            throw new IllegalStateException("CQ " + handle + " has no completion channel");
        }
        int rc;
        try {
            rc = (int) IbvLib.REQ_NOTIFY.invokeExact(notifyFn, cq, solicitedOnly ? 1 : 0);
        } catch (Throwable t) {
            throw new IllegalStateException("ibverbs: req_notify_cq failed", t);
        }
        if (rc != 0) {
            throw new IllegalStateException("ibverbs: req_notify_cq on CQ " + handle + " failed (" + rc + ")");
        }
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        if (users > 0) {
            throw new IllegalStateException("CQ " + handle + " is used by " + users + " queue pair(s) (EBUSY)");
        }
        closed = true;
        device.release(this);
        if (channel != null) {
            channel.detach(this);
        }
        IbvLib.check("ibv_destroy_cq", device.lib().destroyCq, cq);
        arena.close();
    }

    private static WcOpcode[] opcodes() {
        WcOpcode[] byIbv = new WcOpcode[256];
        for (WcOpcode op : WcOpcode.values()) {
            if (op.ibvValue() < 256) {
                byIbv[op.ibvValue()] = op;
            }
        }
        return byIbv;
    }
}
