package org.jwarp.ibverbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static org.jwarp.ibverbs.Structs.offset;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.Objects;
import java.util.Optional;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CounterSet;
import org.jwarp.verbs.Counters;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpAttr;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QpState;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendWr;

/**
 * An RC queue pair ({@code ibv_create_qp}, then {@code ibv_modify_qp} to INIT). Posts write into
 * preallocated native chains ({@link NativeWrs}) and call the context's {@code post_send} /
 * {@code post_recv}, as verbs.h's static inline {@code ibv_post_send} does.
 */
final class IbvQp implements QueuePair {

    /** Requests written per post_send / post_recv call; longer lists are posted in chains of this many. */
    static final int CHAIN = 16;
    private static final int ENOMEM = 12;
    /** {@code enum ibv_atomic_cap}: IBV_ATOMIC_NONE. */
    private static final int IBV_ATOMIC_NONE = 0;

    private final IbvPd pd;
    private final IbvCq sendCq;
    private final IbvCq recvCq;
    private final IbvSrq srq;
    private final MemorySegment qp;
    private final int qpNum;
    private final QpInitAttr initAttr;
    private final Arena arena = Arena.ofShared();
    private final NativeWrs sendWrs;
    private final NativeWrs recvWrs;
    private final MemorySegment postSendFn;
    private final MemorySegment postRecvFn;
    private final boolean atomics;
    private final CounterSet counters = CounterSet.standard("qp");
    private volatile QpState state = QpState.RESET;
    private boolean closed;

    IbvQp(IbvPd pd, QpInitAttr attr) {
        IbvDevice device = pd.device();
        if (attr.srq() != null && !(attr.srq() instanceof IbvSrq q && q.pd().device() == device)) {
            throw new IllegalArgumentException("the shared receive queue belongs to another device");
        }
        if (!(attr.sendCq() instanceof IbvCq s && s.device() == device)
                || !(attr.recvCq() instanceof IbvCq r && r.device() == device)) {
            throw new IllegalArgumentException("the queue pair's CQs belong to another device");
        }
        attr.checkAgainst(device.attributes().limits());
        this.pd = pd;
        this.sendCq = (IbvCq) attr.sendCq();
        this.recvCq = (IbvCq) attr.recvCq();
        try (Arena setup = Arena.ofConfined()) {
            MemorySegment init = setup.allocate(QpStructs.QP_INIT_ATTR);
            var l = QpStructs.QP_INIT_ATTR;
            init.set(ADDRESS, offset(l, "send_cq"), sendCq.pointer());
            init.set(ADDRESS, offset(l, "recv_cq"), recvCq.pointer());
            this.srq = (IbvSrq) attr.srq();
            if (srq != null) {
                init.set(ADDRESS, offset(l, "srq"), srq.pointer());
            }
            init.set(JAVA_INT, offset(l, "cap.max_send_wr"), attr.maxSendWr());
            init.set(JAVA_INT, offset(l, "cap.max_recv_wr"), attr.maxRecvWr());
            init.set(JAVA_INT, offset(l, "cap.max_send_sge"), attr.maxSendSge());
            init.set(JAVA_INT, offset(l, "cap.max_recv_sge"), attr.maxRecvSge());
            init.set(JAVA_INT, offset(l, "cap.max_inline_data"), attr.maxInlineData());
            init.set(JAVA_INT, offset(l, "qp_type"), QpStructs.IBV_QPT_RC);
            init.set(JAVA_INT, offset(l, "sq_sig_all"), attr.signalAll() ? 1 : 0);
            this.qp = IbvDevice.reinterpret(IbvLib.pointer("ibv_create_qp(" + device.name() + ")",
                    device.lib().createQp, pd.pointer(), init), QpStructs.QP.byteSize());
            // ibv_create_qp writes the capacities it allocated back into cap
            // (with a shared receive queue the receive capacities are the queue's: the request's are kept)
            this.initAttr = new QpInitAttr(sendCq, recvCq,
                    init.get(JAVA_INT, offset(l, "cap.max_send_wr")),
                    srq != null ? attr.maxRecvWr() : init.get(JAVA_INT, offset(l, "cap.max_recv_wr")),
                    init.get(JAVA_INT, offset(l, "cap.max_send_sge")),
                    srq != null ? attr.maxRecvSge() : init.get(JAVA_INT, offset(l, "cap.max_recv_sge")),
                    init.get(JAVA_INT, offset(l, "cap.max_inline_data")), attr.signalAll(), srq);
        }
        this.qpNum = qp.get(JAVA_INT, QpStructs.QP_NUM);
        this.sendWrs = new NativeWrs(arena, true, Math.min(CHAIN, initAttr.maxSendWr()), initAttr.maxSendSge(), device.lkeys());
        this.recvWrs = new NativeWrs(arena, false, Math.min(CHAIN, initAttr.maxRecvWr()), initAttr.maxRecvSge(), device.lkeys());
        this.postSendFn = IbvLib.op(device.context(), VerbsStructs.CONTEXT_POST_SEND);
        this.postRecvFn = IbvLib.op(device.context(), VerbsStructs.CONTEXT_POST_RECV);
        this.atomics = device.attributes().atomicCap() != IBV_ATOMIC_NONE;
        sendCq.use(1);
        recvCq.use(1);
        if (srq != null) {
            srq.use(1);
        }
        device.adopt(this);
        try {
            modify(QpState.INIT);
        } catch (RuntimeException e) {
            close();
            throw e;
        }
    }

    MemorySegment pointer() {
        return qp;
    }

    @Override
    public RdmaDevice device() {
        return pd.device();
    }

    @Override
    public ProtectionDomain pd() {
        return pd;
    }

    @Override
    public int qpNum() {
        return qpNum;
    }

    @Override
    public QpInitAttr initAttr() {
        return initAttr;
    }

    @Override
    public QpState state() {
        return state;
    }

    /**
     * {@code ibv_modify_qp}: RESET, INIT (with port 1 and local write, remote read and write
     * access) and ERROR; RTR and RTS are the connection manager's.
     */
    @Override
    public synchronized void modify(QpState target) {
        if (target == QpState.RTR || target == QpState.RTS) {
            throw new IllegalStateException("RTR and RTS are reached through the connection manager, not modify");
        }
        state.checkTransitionTo(target);
        try (Arena setup = Arena.ofConfined()) {
            var l = QpStructs.QP_ATTR;
            MemorySegment a = setup.allocate(l);
            a.set(JAVA_INT, offset(l, "qp_state"), target.ibvValue());
            int mask = QpStructs.IBV_QP_STATE;
            if (target == QpState.INIT) {
                a.set(JAVA_INT, offset(l, "qp_access_flags"), Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ);
                a.set(JAVA_BYTE, offset(l, "port_num"), (byte) 1);
                mask |= QpStructs.IBV_QP_ACCESS_FLAGS | QpStructs.IBV_QP_PKEY_INDEX | QpStructs.IBV_QP_PORT;
            }
            IbvLib.check("ibv_modify_qp(QP " + qpNum + " to " + target + ")", pd.device().lib().modifyQp, qp, a, mask);
        }
        state = target;
    }

    /** The state as the connection manager moved it (librdmacm and the kernel drive RTR and RTS). */
    void stateChanged(QpState now) {
        state = now;
    }

    @Override
    public Optional<QpAttr> connectionAttr() {
        return Optional.empty();
    }

    @Override
    public int postSend(SendWr[] wrs, int count) {
        Objects.checkFromIndexSize(0, count, wrs.length);
        int maxInline = initAttr.maxInlineData();
        for (int start = 0; start < count; start += sendWrs.slots()) {
            int n = Math.min(sendWrs.slots(), count - start);
            for (int i = 0; i < n; i++) {
                int rc = sendWrs.writeSend(i, wrs[start + i], i == n - 1, maxInline, atomics);
                if (rc != PostStatus.OK) {
                    return PostStatus.error(rc, start + i);
                }
            }
            int rc = post(postSendFn, sendWrs);
            if (rc != 0) {
                return PostStatus.error(code(rc), start + sendWrs.badIndex());
            }
        }
        return PostStatus.OK;
    }

    @Override
    public int postSend(SendWr wr) {
        int rc = sendWrs.writeSend(0, wr, true, initAttr.maxInlineData(), atomics);
        if (rc != PostStatus.OK) {
            return PostStatus.error(rc, 0);
        }
        rc = post(postSendFn, sendWrs);
        return rc == 0 ? PostStatus.OK : PostStatus.error(code(rc), 0);
    }

    @Override
    public int postRecv(RecvWr[] wrs, int count) {
        Objects.checkFromIndexSize(0, count, wrs.length);
        for (int start = 0; start < count; start += recvWrs.slots()) {
            int n = Math.min(recvWrs.slots(), count - start);
            for (int i = 0; i < n; i++) {
                int rc = recvWrs.writeRecv(i, wrs[start + i], i == n - 1);
                if (rc != PostStatus.OK) {
                    return PostStatus.error(rc, start + i);
                }
            }
            int rc = post(postRecvFn, recvWrs);
            if (rc != 0) {
                return PostStatus.error(code(rc), start + recvWrs.badIndex());
            }
        }
        return PostStatus.OK;
    }

    @Override
    public int postRecv(RecvWr wr) {
        int rc = recvWrs.writeRecv(0, wr, true);
        if (rc != PostStatus.OK) {
            return PostStatus.error(rc, 0);
        }
        rc = post(postRecvFn, recvWrs);
        return rc == 0 ? PostStatus.OK : PostStatus.error(code(rc), 0);
    }

    private int post(MemorySegment fn, NativeWrs chain) {
        if (closed) {
            return -1;
        }
        try {
            return (int) IbvLib.POST.invokeExact(fn, qp, chain.first(), chain.badWr());
        } catch (Throwable t) {
            throw new IllegalStateException("ibverbs: post to QP " + qpNum + " failed", t);
        }
    }

    /** A provider library's errno (or -1) as a {@link PostStatus} code. */
    private int code(int rc) {
        if (rc == -1 && closed) {
            return PostStatus.QP_DESTROYED;
        }
        return rc == ENOMEM ? PostStatus.QUEUE_FULL : state == QpState.RESET ? PostStatus.INVALID_STATE : PostStatus.INVALID_WR;
    }

    @Override
    public Counters counters() {
        return counters;
    }

    @Override
    public synchronized void close() {
        if (closed) {
            return;
        }
        closed = true;
        IbvDevice device = pd.device();
        device.release(this);
        IbvLib.check("ibv_destroy_qp(" + qpNum + ")", device.lib().destroyQp, qp);
        sendCq.use(-1);
        recvCq.use(-1);
        if (srq != null) {
            srq.use(-1);
        }
        arena.close();
    }
}
