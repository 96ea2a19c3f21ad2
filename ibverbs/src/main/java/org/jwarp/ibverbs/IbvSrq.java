package org.jwarp.ibverbs;

import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.jwarp.ibverbs.Structs.offset;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SharedReceiveQueue;
import org.jwarp.verbs.SrqInitAttr;

/**
 * A shared receive queue ({@code ibv_create_srq}). Receives are written into a preallocated native
 * chain ({@link NativeWrs}) and posted through the context's {@code post_srq_recv}, as verbs.h's
 * static inline {@code ibv_post_srq_recv} does. The verbs API lets any number of threads post at
 * once; they take turns on the one chain (the provider library serializes its post the same way).
 *
 * <p>The limit event ({@code IBV_EVENT_SRQ_LIMIT_REACHED}) arrives on the device's asynchronous
 * event queue, which this provider does not read, and libibverbs does not report a queue's fill
 * level: {@link #armLimit}, {@link #awaitLimit} and {@link #size} are refused in one line.
 */
final class IbvSrq implements SharedReceiveQueue {

    private static final String NO_ASYNC = "this provider does not read the device's asynchronous events";

    private final IbvPd pd;
    private final MemorySegment srq;
    private final int maxWr;
    private final int maxSge;
    private final Arena arena = Arena.ofShared();
    private final NativeWrs wrs;
    private final MemorySegment postFn;
    private int users;
    private boolean closed;

    IbvSrq(IbvPd pd, SrqInitAttr attr) {
        IbvDevice device = pd.device();
        if (attr.limit() != 0) {
            throw new UnsupportedOperationException(device.unsupported("an SRQ limit (IBV_SRQ_LIMIT)", NO_ASYNC));
        }
        attr.checkAgainst(device.attributes().limits());
        this.pd = pd;
        try (Arena setup = Arena.ofConfined()) {
            var l = QpStructs.SRQ_INIT_ATTR;
            MemorySegment init = setup.allocate(l);
            init.set(JAVA_INT, offset(l, "attr.max_wr"), attr.maxWr());
            init.set(JAVA_INT, offset(l, "attr.max_sge"), attr.maxSge());
            this.srq = IbvLib.pointer("ibv_create_srq(" + device.name() + ")", device.lib().createSrq, pd.pointer(), init);
            // ibv_create_srq writes the capacities it allocated back into attr
            this.maxWr = init.get(JAVA_INT, offset(l, "attr.max_wr"));
            this.maxSge = init.get(JAVA_INT, offset(l, "attr.max_sge"));
        }
        this.wrs = new NativeWrs(arena, false, Math.min(IbvQp.CHAIN, maxWr), maxSge, device.lkeys());
        this.postFn = IbvLib.op(device.context(), VerbsStructs.CONTEXT_POST_SRQ_RECV);
        device.adopt(this);
    }

    MemorySegment pointer() {
        return srq;
    }

    synchronized void use(int delta) {
        users += delta;
    }

    @Override
    public ProtectionDomain pd() {
        return pd;
    }

    @Override
    public int maxWr() {
        return maxWr;
    }

    @Override
    public int maxSge() {
        return maxSge;
    }

    @Override
    public synchronized int postRecv(RecvWr wr) {
        int rc = wrs.writeRecv(0, wr, true);
        if (rc != PostStatus.OK) {
            return PostStatus.error(rc, 0);
        }
        rc = post();
        return rc == 0 ? PostStatus.OK : PostStatus.error(code(rc), 0);
    }

    @Override
    public synchronized int postRecv(RecvWr[] list, int count) {
        Objects.checkFromIndexSize(0, count, list.length);
        for (int start = 0; start < count; start += wrs.slots()) {
            int n = Math.min(wrs.slots(), count - start);
            for (int i = 0; i < n; i++) {
                int rc = wrs.writeRecv(i, list[start + i], i == n - 1);
                if (rc != PostStatus.OK) {
                    return PostStatus.error(rc, start + i);
                }
            }
            int rc = post();
            if (rc != 0) {
                return PostStatus.error(code(rc), start + wrs.badIndex());
            }
        }
        return PostStatus.OK;
    }

    private int post() {
        if (closed) {
            return -1;
        }
        try {
            return (int) IbvLib.POST.invokeExact(postFn, srq, wrs.first(), wrs.badWr());
        } catch (Throwable t) {
            throw new IllegalStateException("ibverbs: post to a shared receive queue failed", t);
        }
    }

    private int code(int rc) {
        return closed ? PostStatus.QP_DESTROYED : rc == 12 ? PostStatus.QUEUE_FULL : PostStatus.INVALID_WR;
    }

    @Override
    public int size() {
        throw new UnsupportedOperationException(pd.device().unsupported("SharedReceiveQueue.size",
                "libibverbs does not report a shared receive queue's fill level"));
    }

    @Override
    public void armLimit(int limit) {
        throw new UnsupportedOperationException(pd.device().unsupported("an SRQ limit (ibv_modify_srq IBV_SRQ_LIMIT)",
                NO_ASYNC));
    }

    @Override
    public int limit() {
        return 0;
    }

    @Override
    public boolean awaitLimit(long timeout, TimeUnit unit) {
        throw new UnsupportedOperationException(pd.device().unsupported("IBV_EVENT_SRQ_LIMIT_REACHED", NO_ASYNC));
    }

    @Override
    public long limitEvents() {
        return 0;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        if (users > 0) {
            throw new IllegalStateException("the shared receive queue is used by " + users + " queue pair(s) (EBUSY)");
        }
        closed = true;
        IbvDevice device = pd.device();
        device.release(this);
        IbvLib.check("ibv_destroy_srq", device.lib().destroySrq, srq);
        arena.close();
    }
}
