package org.jwarp.bench.transport.jwarp;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import org.jwarp.bench.perf.Control;
import org.jwarp.bench.perf.ControlMessage;
import org.jwarp.bench.perf.PerfDriver;
import org.jwarp.bench.perf.PerfException;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;

/**
 * The control connection over jwarp itself: a QP of its own carrying SEND/RECV messages of up to
 * {@link ControlMessage#MAX_LENGTH} bytes. A waiting side sleeps on the control CQ's completion
 * channel (in invoker and hybrid modes the wait runs the engine's duty cycle: the waiting thread
 * is the engine until its message comes), so a passive server does no application work while
 * its engine places the client's WRITEs or answers its READs.
 *
 * <p>Sending does not wait for the SEND's completion: the peer may act on a message (and close
 * the connection, after BYE) before the completion is reported here, which would then be a flush.
 * Send slots are reused once their completion, successful or flushed, was reaped; a lost
 * connection shows on the receive side.
 */
final class JwarpControl implements Control {

    static final int RECV_SLOTS = 8;
    static final int SEND_SLOTS = 4;
    private static final int SLOT = ControlMessage.MAX_LENGTH;
    private static final long SEND_ID = 1L << 32;

    private final JwarpSide side;
    private final MemoryRegion mr;
    private final ArrayDeque<ControlMessage> arrived = new ArrayDeque<>();
    private final WorkCompletion[] wcs = {new WorkCompletion(), new WorkCompletion(), new WorkCompletion(),
            new WorkCompletion()};
    private final RecvWr recv = new RecvWr(1);
    private final SendWr send = new SendWr(1);
    private final boolean[] sendBusy = new boolean[SEND_SLOTS];
    private int nextSend;
    private PerfException lost;
    private boolean started;

    JwarpControl(JwarpSide side) {
        this.side = side;
        mr = side.pd.registerMemory(side.arena.allocate((long) (RECV_SLOTS + SEND_SLOTS) * SLOT, 64),
                Access.LOCAL_WRITE);
    }

    /** Posts the receive slots: before the connection is set up, so that the peer's first message finds one. */
    void start() {
        if (started) {
            return;
        }
        started = true;
        for (int i = 0; i < RECV_SLOTS; i++) {
            postRecv(i);
        }
    }

    private void postRecv(int slot) {
        recv.clearSges().wrId(slot).addSge(mr, (long) slot * SLOT, SLOT);
        int rc = side.ctlQp.postRecv(recv);
        if (rc != PostStatus.OK) {
            throw new PerfException("the control connection is down (" + side.ctlQp.state() + ")");
        }
    }

    @Override
    public void send(ControlMessage m) {
        int slot = nextSend++ % SEND_SLOTS;
        long deadline = System.nanoTime() + PerfDriver.PROMPT.toNanos();
        while (sendBusy[slot]) {
            pump(deadline, "sending a control message");
        }
        long off = (long) (RECV_SLOTS + slot) * SLOT;
        ByteBuffer b = mr.segment().asSlice(off, SLOT).asByteBuffer();
        int len = m.writeTo(b);
        send.reset().wrId(SEND_ID | slot).opcode(WrOpcode.SEND).signaled(true).addSge(mr, off, len);
        int rc = side.ctlQp.postSend(send);
        if (rc != PostStatus.OK) {
            throw side.lost("control QP " + side.ctlQp.state());
        }
        sendBusy[slot] = true;
    }

    @Override
    public void drain() {
        long deadline = System.nanoTime() + PerfDriver.PROMPT.toNanos();
        try {
            for (int slot = 0; slot < SEND_SLOTS; slot++) {
                while (sendBusy[slot]) {
                    pump(deadline, "sending the last control message");
                }
            }
        } catch (PerfException e) {
            // the peer closed as soon as it had the last message: its receives flushed here; done
            return;
        }
    }

    @Override
    public ControlMessage receive(Duration timeout) {
        long deadline = System.nanoTime() + Math.min(timeout.toNanos(), Long.MAX_VALUE / 4);
        while (arrived.isEmpty()) {
            pump(deadline, "waiting for the peer");
        }
        ControlMessage m = arrived.poll();
        if (m.type() == ControlMessage.Type.ERROR) {
            throw new PerfDriver.PeerFailedException("the peer stopped: " + m.text());
        }
        return m;
    }

    /**
     * Reaps at least one completion, or sleeps on the channel for up to 100 ms (armed, then
     * re-polled). In invoker and hybrid modes this thread is also the engine (of a passive server, the one
     * placing the client's WRITEs or answering its READs): the channel's wait runs the engine's
     * duty cycle under the device's idle strategy meanwhile.
     */
    private void pump(long deadline, String what) {
        if (pollAndHandle() > 0) {
            return;
        }
        side.ctlCq.requestNotify(false);
        if (pollAndHandle() > 0) {
            return;
        }
        long left = deadline - System.nanoTime();
        if (left <= 0) {
            throw new PerfException("no answer from the peer for " + PerfDriver.PROMPT.toSeconds() + " s (" + what + ")");
        }
        try {
            side.ctlChannel.await(Math.min(left, 100_000_000L), TimeUnit.NANOSECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PerfException("interrupted " + what);
        }
        // what arrived before the peer closed (its last message) still counts; only this connection's
        // state matters here (the data connections close in no order relative to it)
        if (pollAndHandle() == 0 && side.ctlQp.state() != org.jwarp.verbs.QpState.RTS) {
            throw side.lost("control QP " + side.ctlQp.state());
        }
    }

    private int pollAndHandle() {
        int n = side.ctlCq.poll(wcs);
        for (int i = 0; i < n; i++) {
            handle(wcs[i]);
        }
        if (lost != null && arrived.isEmpty()) {
            throw lost;
        }
        return n;
    }

    private void handle(WorkCompletion wc) {
        if ((wc.wrId() & SEND_ID) != 0) {
            sendBusy[(int) (wc.wrId() & ~SEND_ID)] = false;
            if (wc.status() != WcStatus.SUCCESS && wc.status() != WcStatus.WR_FLUSH_ERR && lost == null) {
                // as a failed receive: what arrived still counts. siw completes the send it was
                // transmitting when the connection ended with LOC_QP_OP_ERR, the rest flushed
                lost = side.lost("a control message failed: " + wc);
            }
            return;
        }
        if (wc.status() != WcStatus.SUCCESS) {
            // a message reaped in the same batch (the peer's last, before it closed) is still delivered
            if (lost == null) {
                lost = side.lost(wc.status() == WcStatus.WR_FLUSH_ERR ? "control work flushed" : "control " + wc.status());
            }
            return;
        }
        int slot = (int) wc.wrId();
        MemorySegment s = mr.segment().asSlice((long) slot * SLOT, wc.byteLen());
        byte[] copy = s.toArray(ValueLayout.JAVA_BYTE);
        postRecv(slot);
        try {
            arrived.add(ControlMessage.readFrom(ByteBuffer.wrap(copy)));
        } catch (IllegalArgumentException e) {
            throw new PerfException("the peer sent a control message this jwarp does not understand: " + e.getMessage());
        }
    }

}
