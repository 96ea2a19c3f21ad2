package org.jwarp.stack;

import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;

/**
 * Work completions of one stream: send-queue completions in submission order (RFC 5040 §5.5),
 * each Send or Write held back until the socket has taken its payload, and the flush that
 * completes everything outstanding when the stream stops.
 */
final class Completer {

    private final StreamContext s;
    private final CompletionSink sendCq;
    private final CompletionSink recvCq;
    /** Send completions waiting for their bytes to leave registered memory, in submission order. */
    private final SendCompletions pending = new SendCompletions(RingArrays.FIRST);
    private long cqOverruns;

    Completer(StreamContext s, CompletionSink sendCq, CompletionSink recvCq) {
        this.s = s;
        this.sendCq = sendCq;
        this.recvCq = recvCq;
    }

    /** Completions that found their completion queue full and were dropped. */
    long cqOverruns() {
        return cqOverruns;
    }

    /**
     * Publishes a send-queue completion, or queues it behind earlier ones: a Send or Write whose
     * payload the sink still references ({@code barrier} ≥ 0) waits until {@link #released} says
     * the socket has taken it.
     */
    void send(long wrId, WcStatus status, WcOpcode opcode, long bytes, long barrier) {
        // a request whose bytes the socket already took (a local operation puts none) completes now
        if (barrier <= releasedUpTo && pending.isEmpty()) {
            complete(sendCq, wrId, status, opcode, bytes);
        } else {
            pending.add(wrId, status, opcode, bytes, Math.max(barrier, 0));
        }
    }

    /** Framed bytes the socket has taken so far, as {@link #released} last said. */
    private long releasedUpTo;

    /** Completes a send-queue request that never ran with {@link WcStatus#WR_FLUSH_ERR}, signaled or not. */
    void flushSend(SendWr wr) {
        complete(sendCq, wr.wrId(), WcStatus.WR_FLUSH_ERR, wr.opcode().completionOpcode(), 0);
    }

    /** The socket took the first {@code bytesWritten} framed bytes: the completions waiting for them are published. */
    void released(long bytesWritten) {
        releasedUpTo = bytesWritten;
        while (!pending.isEmpty() && pending.headBarrier() <= bytesWritten) {
            complete(sendCq, pending.headWrId(), pending.headStatus(), pending.headOpcode(), pending.headBytes());
            pending.pop();
        }
    }

    /** A slot for a receive completion, or null (counted as an overrun) if the queue is full. */
    WorkCompletion claimRecv() {
        WorkCompletion wc = recvCq.claim();
        if (wc == null) {
            cqOverruns++;
        }
        return wc;
    }

    void publishRecv(boolean solicited) {
        recvCq.publish(solicited);
    }

    void recv(RecvWr wr, WcStatus status) {
        complete(recvCq, wr.wrId(), status, WcOpcode.RECV, 0);
    }

    private void complete(CompletionSink cq, long wrId, WcStatus status, WcOpcode opcode, long bytes) {
        WorkCompletion wc = cq.claim();
        if (wc == null) {
            cqOverruns++;
            return;
        }
        wc.reset().wrId(wrId).status(status).opcode(opcode).byteLen(bytes).qpNum(s.qpNum);
        if (status != WcStatus.SUCCESS) {
            s.terminator.stamp(wc, status);
        }
        cq.publish(false);
    }

    /**
     * In the error state, completes everything posted so far with {@link WcStatus#WR_FLUSH_ERR}
     * (requests posted after the error included: the engine calls this from its duty cycle):
     * held completions, the message being sent, outstanding Reads and Atomics, the send queue, the
     * receive being filled, the receive queue. Returns the number of requests completed.
     */
    int flush() {
        int n = 0;
        while (!pending.isEmpty()) {
            // framed but possibly never sent: the connection is gone, so they cannot be known delivered
            WcStatus st = pending.headStatus() == WcStatus.SUCCESS ? WcStatus.WR_FLUSH_ERR : pending.headStatus();
            complete(sendCq, pending.headWrId(), st, pending.headOpcode(), 0);
            pending.pop();
            n++;
        }
        n += s.tx.flushCurrent();
        OutboundReadQueue orq = s.orq;
        while (orq != null && orq.size() > 0) {
            complete(sendCq, orq.headWrId(), WcStatus.WR_FLUSH_ERR, orq.headOpcode(), 0);
            orq.pop();
            n++;
        }
        for (SendWr wr = s.sendQueue.peek(); wr != null; wr = s.sendQueue.peek()) {
            flushSend(wr);
            s.sendQueue.advance();
            n++;
        }
        n += s.rx.flushCurrent();
        // a shared receive queue's requests belong to every stream on it: none is flushed here
        for (RecvWr wr = s.recvQueue.shared() ? null : s.recvQueue.peek(); wr != null; wr = s.recvQueue.peek()) {
            recv(wr, WcStatus.WR_FLUSH_ERR);
            s.recvQueue.advance();
            n++;
        }
        if (s.irq != null) {
            s.irq.clear();
        }
        return n;
    }
}
