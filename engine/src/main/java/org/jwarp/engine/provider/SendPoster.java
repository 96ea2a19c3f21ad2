package org.jwarp.engine.provider;

import java.lang.invoke.VarHandle;
import java.util.function.IntSupplier;
import org.jwarp.engine.datapath.SendSlot;
import org.jwarp.engine.ring.SpscSlotRing;
import org.jwarp.engine.runtime.EngineScheduler;
import org.jwarp.engine.runtime.EngineWorker;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QpState;
import org.jwarp.verbs.SendWr;

/**
 * A QP's send-queue posts, on the application's thread: the post's checks, the copy into a
 * send-queue slot, and how the engine learns of it. In invoker and hybrid modes the poster runs
 * the engine itself, and a one-FPDU Write or Send posted while nothing is queued takes the
 * small-message send ({@link EngineWorker#sendNow}): framed from the request and written at once,
 * no slot taken. Allocates nothing.
 */
final class SendPoster {

    private final JwarpQp qp;
    private final JwarpDevice device;
    private final QpInitAttr attr;
    private final QpLifecycle lifecycle;
    private final SpscSlotRing<SendSlot> sq;

    /** The request {@link #postHere} posts, and what the post returned (poster's thread only). */
    private SendWr directWr;
    private int directRc;
    /** Made once, as every supplier here: a post allocates nothing. */
    private final IntSupplier postHere = this::postDirect;
    /** The poster's transmit in invoker and hybrid modes. */
    private final IntSupplier transmitHere;

    SendPoster(JwarpQp qp, JwarpDevice device, QpInitAttr attr, QpLifecycle lifecycle, SpscSlotRing<SendSlot> sq) {
        this.qp = qp;
        this.device = device;
        this.attr = attr;
        this.lifecycle = lifecycle;
        this.sq = sq;
        this.transmitHere = () -> qp.worker().transmitNow(qp);
    }

    int post(SendWr wr) {
        // invoker and hybrid modes, nothing queued: the post may go out at once, from here
        if (device.invokerMode() && sq.isEmpty() && !qp.isParked()) {
            directWr = wr;
            boolean ran = device.tryInvoke(postHere);
            directWr = null;
            if (ran) {
                return directRc;
            }
        }
        int rc = postOne(wr, 0);
        if (rc == PostStatus.OK) {
            kick();
        }
        return rc;
    }

    int post(SendWr[] wrs, int count) {
        if (count == 1) {
            return post(wrs[0]);                            // what it returns names index 0, as below
        }
        for (int i = 0; i < count; i++) {
            int rc = postOne(wrs[i], i);
            if (rc != PostStatus.OK) {
                if (i > 0) {
                    kick();
                }
                return rc;
            }
        }
        if (count > 0) {
            kick();
        }
        return PostStatus.OK;
    }

    /**
     * Invoker and hybrid modes, on the posting thread holding the engine: the post's checks, then
     * the small-message send, which frames and writes a one-FPDU Write or Send straight from the
     * request; one it declines goes to the send queue and leaves as {@link #kick} would send it.
     * The duty cycle runs after it, as after any invoked post.
     */
    private int postDirect() {
        SendWr wr = directWr;
        QpState state = lifecycle.state();
        int rc = check(wr, 0, state);
        if (rc == PostStatus.OK && state == QpState.RTS) {
            int sent = qp.worker().sendNow(qp, wr);
            if (sent > 0) {
                directRc = PostStatus.OK;
                return sent;
            }
        }
        if (rc == PostStatus.OK) {
            rc = enqueue(wr, 0, state);
        }
        directRc = rc;
        if (rc != PostStatus.OK) {
            return 0;
        }
        announce();
        return qp.worker().transmitNow(qp);
    }

    private int postOne(SendWr wr, int index) {
        QpState s = lifecycle.state();
        int rc = check(wr, index, s);
        return rc == PostStatus.OK ? enqueue(wr, index, s) : rc;
    }

    /** The checks of a send-queue post in state {@code s}: OK, or the error to return. */
    private int check(SendWr wr, int index, QpState s) {
        if (qp.isClosed()) {
            return PostStatus.error(PostStatus.QP_DESTROYED, index);
        }
        if (!s.acceptsSend()) {
            return PostStatus.error(PostStatus.INVALID_STATE, index);
        }
        int check = wr.check(attr.maxSendSge(), attr.maxInlineData(), device.config().rfc7306(), device.config().rfc7306());
        if (check != PostStatus.OK) {
            return PostStatus.error(check, index);
        }
        if (s == QpState.ERROR && device.failed()) {
            return PostStatus.error(PostStatus.DEVICE_FATAL, index); // no engine would flush it
        }
        return PostStatus.OK;
    }

    /** A checked request goes into the send queue (in state {@code s}). */
    private int enqueue(SendWr wr, int index, QpState s) {
        SendSlot slot = sq.claim();
        if (slot == null) {
            return PostStatus.error(PostStatus.QUEUE_FULL, index);
        }
        if (!slot.load(wr)) {
            // an inline source whose arena was closed: refused here, the slot stays unpublished
            return PostStatus.error(PostStatus.INVALID_WR, index);
        }
        sq.publish();
        if (s == QpState.ERROR) {
            qp.flushSoon();
        }
        return PostStatus.OK;
    }

    /**
     * New work for the engine. In invoker and hybrid modes the poster runs the duty cycle that
     * sends it, which scans the send queue after the post — this QP's transmit first
     * ({@link EngineWorker#transmitNow}), so that the request leaves before the rest of the cycle:
     * no doorbell is needed unless another thread is in a cycle, which may have scanned it already
     * and must look again. Otherwise the doorbell (a volatile write; an unpark only if the engine
     * thread sleeps).
     */
    private void kick() {
        announce();
        if (device.invokerMode() && device.tryInvoke(transmitHere)) {
            return;
        }
        qp.worker().doorbell().ring();
    }

    /** A post to a parked connection puts its QP on the engine thread's list ({@link EngineScheduler}). */
    private void announce() {
        // the post is published before parked is read, as EngineScheduler#park writes parked before
        // it reads the send queue: one of the two sees the other's write
        VarHandle.fullFence();
        if (qp.isParked()) {
            qp.worker().postedWhileParked(qp);
        }
    }
}
