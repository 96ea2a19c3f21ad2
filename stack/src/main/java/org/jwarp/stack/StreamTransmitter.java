package org.jwarp.stack;

import java.lang.foreign.MemorySegment;
import org.jwarp.stack.StagTable.Region;
import org.jwarp.verbs.SendFlags;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WrOpcode;
import org.jwarp.wire.ddp.DdpHeader;
import org.jwarp.wire.ddp.DdpSegmenter;
import org.jwarp.wire.mpa.RtrType;
import org.jwarp.wire.rdmap.AtomicRequestHeader;
import org.jwarp.wire.rdmap.AtomicResponseHeader;
import org.jwarp.wire.rdmap.ImmediateDataHeader;
import org.jwarp.wire.rdmap.RdmapError;
import org.jwarp.wire.rdmap.RdmapOpcode;
import org.jwarp.wire.rdmap.ReadRequestHeader;

/**
 * The transmit side of a stream: one message at a time (segments of two messages never
 * interleave, RFC 5041 §5.3), cut at MULPDU and at scatter/gather boundaries. The next message is
 * chosen by {@link #startMessage}: the RTR first, then responses the peer is owed (Read and Atomic
 * Responses, generated here with no application thread), then the send queue, each request once
 * {@link SendAdmission} lets it start. The Terminate, once queued, is the last message (RFC 5040
 * §5.4, §6.2).
 */
final class StreamTransmitter {

    /** What the message in progress is. */
    private enum Message { NONE, DATA, IMMEDIATE, READ_RESPONSE, ATOMIC_RESPONSE }

    private final StreamContext s;
    private final DdpSegmenter segmenter = new DdpSegmenter();
    private final MemorySegment header = MemorySegment.ofArray(new byte[128]);
    /** The send's gather list, resolved before its first byte goes out. */
    private final SgeCursor gather;
    private final SendAdmission admission;

    private Message message = Message.NONE;
    private SendWr wr;
    private long total;
    /** Payload bytes of the Read Response in progress already sent. */
    private long responseSent;
    private int sendMsn = 1;
    private int readMsn = 1;
    private int atomicResponseMsn = 1;
    private int nextRequestId = 1;
    private RtrType rtrPending;
    private long fpdusSent;
    private FpduSink sink;

    StreamTransmitter(StreamContext s) {
        this.s = s;
        this.gather = new SgeCursor(s.maxSge);
        this.admission = new SendAdmission(s, gather);
    }

    long fpdusSent() {
        return fpdusSent;
    }

    void queueRtr(RtrType type) {
        rtrPending = type;
    }

    RtrType rtrPending() {
        return rtrPending;
    }

    /** Hands as many FPDUs to {@code sink} as it has room for; returns how many. */
    int transmit(FpduSink sink) {
        this.sink = sink;
        int frames = 0;
        while (true) {
            Terminator t = s.terminator;
            if (t.pending()) {
                if (!sink.hasRoom(t.length())) {
                    return frames;
                }
                sink.frame(t.message(), 0, t.length(), t.message(), 0, 0);
                t.sent();
                s.counters.increment(s.cTerminatesTx);
                counted(t.length());
                s.enterError();
                return frames + 1;
            }
            if (!s.running() || s.txHeldForFirstFpdu) {
                return frames;
            }
            // the RTR is the very first FPDU; a nudge waits for a message boundary, as segments of
            // two messages must not interleave (RFC 5041 §5.3; siw refuses it)
            if (rtrPending != null && message == Message.NONE) {
                if (!emitRtr()) {
                    return frames;
                }
                frames++;
                continue;
            }
            if (message == Message.NONE && !startMessage()) {
                return frames;
            }
            if (!emitSegment()) {
                return frames;
            }
            frames++;
        }
    }

    private void counted(int ulpduLength) {
        fpdusSent++;
        s.counters.increment(s.cFpdusTx);
        s.counters.add(s.cBytesTx, ulpduLength);
    }

    /** Hands the one-FPDU message whose {@code length} bytes are in {@link #header} to the sink. */
    private void emitHeaderOnly(int length) {
        sink.frame(header, 0, length, MemorySegment.NULL, 0, 0);
        counted(length);
    }

    /** Chooses the next message: owed responses first, in request order (RFC 5040 §5.5), then the send queue. */
    private boolean startMessage() {
        InboundReadQueue irq = s.irq;
        if (!irq.isEmpty()) {
            if (irq.headAtomic()) {
                message = Message.ATOMIC_RESPONSE;
            } else {
                segmenter.tagged(RdmapOpcode.RDMA_READ_RESPONSE, irq.headSinkStag(), irq.headSinkTo(), irq.headSize(),
                        s.params.mulpdu());
                message = Message.READ_RESPONSE;
                responseSent = 0;
            }
            return true;
        }
        SendWr next;
        while ((next = s.sendQueue.peek()) != null && next.opcode().isLocal()) {
            // RFC 5040 §5.5: a fenced request waits until every earlier Read has completed
            if (next.hasFlag(SendFlags.FENCE) && s.orq.size() > 0 || !admission.executeLocal(next)) {
                return false;
            }
            wr = next;
            total = 0;
            completeCurrent();
        }
        if (next == null || !admission.admit(next)) {
            return false;
        }
        return begin(next);
    }

    /**
     * The request whose gather list {@link SendAdmission} resolved becomes the message in
     * progress: its segmentation and, for a Send, its MSN. Returns true (for the transmit loop).
     */
    private boolean begin(SendWr next) {
        wr = next;
        total = next.totalLength();
        gather.start(next);
        WrOpcode op = next.opcode();
        switch (op) {
            case SEND_WITH_IMM ->
                    // RFC 7306 §6: the Send, then an Immediate Data message; the SE, if any, goes on the latter
                    segmenter.untagged(RdmapOpcode.SEND, sendMsn++, 0, total, s.params.mulpdu());
            case IMMEDIATE_DATA -> {
                message = Message.IMMEDIATE;
                return true;
            }
            case SEND, SEND_WITH_INV -> {
                boolean se = next.hasFlag(SendFlags.SOLICITED);
                RdmapOpcode rop = op == WrOpcode.SEND
                        ? (se ? RdmapOpcode.SEND_WITH_SE : RdmapOpcode.SEND)
                        : (se ? RdmapOpcode.SEND_WITH_SE_AND_INVALIDATE : RdmapOpcode.SEND_WITH_INVALIDATE);
                segmenter.untagged(rop, sendMsn++, op == WrOpcode.SEND_WITH_INV ? next.invalidateRkey() : 0, total,
                        s.params.mulpdu());
            }
            case RDMA_WRITE, RDMA_WRITE_WITH_IMM ->
                    segmenter.tagged(RdmapOpcode.RDMA_WRITE, next.rkey(), next.remoteAddr(), total, s.params.mulpdu());
            case RDMA_READ, ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD -> {
                // one FPDU each; the segmenter is not used
            }
            default -> throw new IllegalStateException("unhandled opcode " + op);
        }
        message = Message.DATA;
        return true;
    }

    /**
     * The small-message send: a Write or Send that fits one FPDU, or a Read Request, posted when
     * nothing else is to be sent, is framed into {@code sink} now, from the poster's request itself
     * rather than from a send-queue slot, and completes as the general path completes it (a Write or
     * Send once the sink's barrier is written, a Read when its Response is placed). Every rule of
     * the general path holds because it runs the general path's steps: the same admission,
     * segmentation and completion. Returns false, having done nothing, when the request must take
     * the send queue instead: something else is queued or in progress, the request needs more than
     * one FPDU, or admission would make it wait or refuse it (the general path then carries that
     * out in order).
     */
    boolean sendDirect(SendWr next, FpduSink sink) {
        WrOpcode op = next.opcode();
        boolean read = op == WrOpcode.RDMA_READ;
        // one entry at most: the segmenter cuts a message at every scatter/gather boundary
        if (!s.directSend || op != WrOpcode.RDMA_WRITE && op != WrOpcode.SEND && op != WrOpcode.SEND_WITH_INV && !read
                || next.numSge() > 1
                || message != Message.NONE || rtrPending != null || s.terminator.pending() || !s.running()
                || s.txHeldForFirstFpdu || !s.irq.isEmpty() || s.sendQueue.peek() != null) {
            return false;
        }
        // a Read Request carries no payload, whatever the size it asks for (RFC 5040 §4.4)
        long length = read ? ReadRequestHeader.LENGTH : next.totalLength();
        int headerLength = op == WrOpcode.RDMA_WRITE ? DdpHeader.TAGGED_LENGTH : DdpHeader.UNTAGGED_LENGTH;
        if (!read && length > s.params.mulpdu() || !sink.hasRoom(headerLength + (int) length)
                || !admission.admitsNow(next)) {
            return false;
        }
        this.sink = sink;
        direct = true;
        begin(next);
        if (!emitSegment()) {
            throw new IllegalStateException("a one-FPDU message found no room it was promised");
        }
        return true;
    }

    /** The message in progress came from {@link #sendDirect}, not from the send queue. */
    private boolean direct;

    private boolean emitSegment() {
        return switch (message) {
            case DATA -> wr.opcode() == WrOpcode.RDMA_READ ? emitReadRequest()
                    : wr.opcode().isAtomic() ? emitAtomicRequest() : emitData();
            case ATOMIC_RESPONSE -> emitAtomicResponse();
            case IMMEDIATE -> emitImmediate();
            case READ_RESPONSE -> emitReadResponse();
            case NONE -> throw new IllegalStateException("no message in progress");
        };
    }

    private boolean emitData() {
        // empty entries are stepped over, so every segment but a zero-length message's carries data
        long sgeLeft = gather.current();
        int length = segmenter.nextLength(sgeLeft);
        if (!sink.hasRoom(segmenter.headerLength() + length)) {
            return false;
        }
        segmenter.next(sgeLeft);
        int h = segmenter.writeHeader(header, 0);
        MemorySegment src = MemorySegment.NULL;
        long srcOffset = 0;
        if (length > 0) {
            Region r = gather.region(gather.index());
            src = r == null ? wr.sgeInlineSource(gather.index()) : r.segment();
            srcOffset = gather.regionOffset();
        }
        try {
            sink.frame(header, 0, h, src, srcOffset, length);
        } catch (IllegalStateException e) {
            return sourceGone(e, src);
        }
        if (length > 0) {
            gather.advanceWithin(length);
        }
        counted(h + length);
        if (segmenter.last()) {
            if (wr.opcode().carriesImmediate()) {
                message = Message.IMMEDIATE; // RFC 7306 §6: the Write or Send, then an Immediate Data message
            } else {
                completeCurrent();
            }
        }
        return true;
    }

    private boolean emitImmediate() {
        int length = DdpHeader.UNTAGGED_LENGTH + ImmediateDataHeader.LENGTH;
        if (!sink.hasRoom(length)) {
            return false;
        }
        // RFC 7306 §4.2: untagged on QN 0, it takes the next Send MSN and consumes a receive.
        RdmapOpcode op = wr.hasFlag(SendFlags.SOLICITED) ? RdmapOpcode.IMMEDIATE_DATA_WITH_SE
                : RdmapOpcode.IMMEDIATE_DATA;
        int h = DdpHeader.writeUntagged(header, 0, true, op, 0, RdmapOpcode.QN_SEND, sendMsn++, 0);
        ImmediateDataHeader.write(header, h, wr.immData());
        emitHeaderOnly(length);
        completeCurrent();
        return true;
    }

    private boolean emitReadRequest() {
        int length = DdpHeader.UNTAGGED_LENGTH + ReadRequestHeader.LENGTH;
        if (!sink.hasRoom(length)) {
            return false;
        }
        Region sinkRegion = gather.region(0);
        long sinkTo = sinkRegion.iova() + wr.sgeOffset(0);
        // RFC 5040 §4.4: untagged on QN 1 with its own MSN sequence, MO 0, L set, never segmented.
        int h = DdpHeader.writeUntagged(header, 0, true, RdmapOpcode.RDMA_READ_REQUEST, 0,
                RdmapOpcode.QN_READ_REQUEST, readMsn++, 0);
        ReadRequestHeader.write(header, h, sinkRegion.stag(), sinkTo, total, wr.rkey(), wr.remoteAddr());
        emitHeaderOnly(length);
        s.orq.push(wr.wrId(), signaled(wr), sinkRegion.stag(), sinkTo, total);
        // the request slot goes back to the poster now; the Read completes when its response is placed
        retireCurrent();
        return true;
    }

    /**
     * RFC 7306 §4.3: an Atomic Request is untagged on QN 1, in the Read Request MSN sequence and
     * under the same ORD credit; its Request Identifier pairs it with the Atomic Response.
     */
    private boolean emitAtomicRequest() {
        int length = DdpHeader.UNTAGGED_LENGTH + AtomicRequestHeader.LENGTH;
        if (!sink.hasRoom(length)) {
            return false;
        }
        boolean cas = wr.opcode() == WrOpcode.ATOMIC_CMP_AND_SWP;
        int id = nextRequestId++;
        int h = DdpHeader.writeUntagged(header, 0, true, RdmapOpcode.ATOMIC_REQUEST, 0,
                RdmapOpcode.QN_READ_REQUEST, readMsn++, 0);
        if (cas) {
            AtomicRequestHeader.write(header, h, AtomicRequestHeader.AOPCODE_COMPARE_SWAP, id, wr.rkey(),
                    wr.remoteAddr(), wr.swap(), wr.swapOrAddMask(), wr.compareAdd(), wr.compareMask());
        } else {
            // RFC 7306 §4.3: FetchAdd carries Compare Data 0 and a Compare Mask of all ones
            AtomicRequestHeader.write(header, h, AtomicRequestHeader.AOPCODE_FETCH_ADD, id, wr.rkey(),
                    wr.remoteAddr(), wr.compareAdd(), wr.swapOrAddMask(), 0, -1L);
        }
        emitHeaderOnly(length);
        s.orq.pushAtomic(wr.wrId(), signaled(wr), id, cas, gather.region(0), wr.sgeOffset(0));
        retireCurrent();
        return true;
    }

    /** RFC 7306 §4.4: untagged on QN 3, its own MSN sequence, the value before the operation. */
    private boolean emitAtomicResponse() {
        int length = DdpHeader.UNTAGGED_LENGTH + AtomicResponseHeader.LENGTH;
        if (!sink.hasRoom(length)) {
            return false;
        }
        int h = DdpHeader.writeUntagged(header, 0, true, RdmapOpcode.ATOMIC_RESPONSE, 0,
                RdmapOpcode.QN_ATOMIC_RESPONSE, atomicResponseMsn++, 0);
        // carried out now, in request order with the Read Responses before it (RFC 5040 §5.5)
        long original;
        try {
            original = Atomics.perform(s.irq);
        } catch (IllegalStateException e) {
            return sourceGone(e, s.irq.headSource().segment());
        }
        AtomicResponseHeader.write(header, h, s.irq.headRequestId(), original);
        emitHeaderOnly(length);
        s.irq.pop();
        message = Message.NONE;
        return true;
    }

    /**
     * RFC 6581 §5, §9.3: the zero-length RTR message. A Send RTR uses Send MSN 1 and a Read RTR
     * Read MSN 1 (and an ORD credit until its zero-length Response arrives); a Write RTR uses STag 1
     * and TO 0, as siw does.
     */
    private boolean emitRtr() {
        int length = switch (rtrPending) {
            case WRITE -> DdpHeader.TAGGED_LENGTH;
            case SEND -> DdpHeader.UNTAGGED_LENGTH;
            case READ -> DdpHeader.UNTAGGED_LENGTH + ReadRequestHeader.LENGTH;
        };
        if (!sink.hasRoom(length) || (rtrPending == RtrType.READ && s.orq.full())) {
            return false;
        }
        switch (rtrPending) {
            case WRITE -> DdpHeader.writeTagged(header, 0, true, RdmapOpcode.RDMA_WRITE, 1, 0);
            case SEND -> DdpHeader.writeUntagged(header, 0, true, RdmapOpcode.SEND, 0, RdmapOpcode.QN_SEND,
                    sendMsn++, 0);
            case READ -> {
                int h = DdpHeader.writeUntagged(header, 0, true, RdmapOpcode.RDMA_READ_REQUEST, 0,
                        RdmapOpcode.QN_READ_REQUEST, readMsn++, 0);
                // reference §8: sink STag 0 / TO 0, size 0, source STag 1 / TO 0, as siw sends it;
                // the zero-length Response must echo the sink exactly.
                ReadRequestHeader.write(header, h, 0, 0, 0, 1, 0);
                s.orq.push(-1, false, 0, 0, 0);
            }
        }
        emitHeaderOnly(length);
        rtrPending = null;
        return true;
    }

    private boolean emitReadResponse() {
        int length = segmenter.nextLength(Long.MAX_VALUE);
        if (!sink.hasRoom(segmenter.headerLength() + length)) {
            return false;
        }
        segmenter.next();
        int h = segmenter.writeHeader(header, 0);
        InboundReadQueue irq = s.irq;
        // RFC 5040 §4.4: a zero-length Read carries no source and its Response no payload
        MemorySegment from = length == 0 ? MemorySegment.NULL : irq.headSource().segment();
        try {
            sink.frame(header, 0, h, from, irq.headSourceOffset() + responseSent, length);
        } catch (IllegalStateException e) {
            return sourceGone(e, from);
        }
        responseSent += length;
        counted(h + length);
        if (segmenter.last()) {
            irq.pop();
            message = Message.NONE;
        }
        return true;
    }

    /**
     * Framing a segment failed because the application closed the arena of the memory its payload
     * comes from (the sink framed nothing): for a Read or Atomic Response the peer named a region
     * whose memory is gone — RFC 5040 §4.8, RDMAP remote protection error, invalid STag, as the
     * request's check would have answered had the memory been freed before it arrived; for a
     * request of our own, its source is gone — it completes with {@link WcStatus#LOC_PROT_ERR} and
     * the stream ends with an RDMAP local catastrophic error (as a request {@link SendAdmission} refuses). Either way
     * the Terminate goes out next and everything else is flushed. Anything else is a bug and goes
     * on up. Returns true (the transmit loop carries on, to send the Terminate).
     */
    private boolean sourceGone(IllegalStateException e, MemorySegment source) {
        if (source.scope().isAlive()) {
            throw e;
        }
        if (message == Message.READ_RESPONSE || message == Message.ATOMIC_RESPONSE) {
            s.terminator.terminate(RdmapError.INVALID_STAG, null, 0);
        } else {
            s.terminator.terminate(RdmapError.LOCAL_CATASTROPHIC, null, 0);
            long wrId = wr.wrId();
            WcOpcode opcode = wr.opcode().completionOpcode();
            retireCurrent();
            s.completer.send(wrId, WcStatus.LOC_PROT_ERR, opcode, 0, -1);
        }
        return true;
    }

    private boolean signaled(SendWr w) {
        return s.signalAll || w.hasFlag(SendFlags.SIGNALED);
    }

    /** The send queue's slot of the message in progress goes back to the poster. */
    private void retireCurrent() {
        message = Message.NONE;
        wr = null;
        if (direct) {
            direct = false;                 // the request never took a slot
        } else {
            s.sendQueue.advance();
        }
    }

    /**
     * A Send or Write is complete when its last FPDU is handed to the LLP (RFC 5040 §5.5). The
     * slot goes back before the completion shows: a poster that re-posts as soon as it reaps the
     * completion must find room (as a full send queue on a verbs device does).
     */
    private void completeCurrent() {
        long wrId = wr.wrId();
        WcOpcode opcode = wr.opcode().completionOpcode();
        boolean signaled = signaled(wr);
        retireCurrent();
        if (signaled) {
            s.completer.send(wrId, WcStatus.SUCCESS, opcode, total, sink.completionBarrier());
        }
    }

    /**
     * The peer's Terminate names a message: the open request for it, if it is the one being sent,
     * completes with {@code status}. False if no message is being sent.
     */
    boolean failCurrent(WcStatus status) {
        if (wr == null) {
            return false;
        }
        s.completer.send(wr.wrId(), status, wr.opcode().completionOpcode(), 0, -1);
        retireCurrent();
        return true;
    }

    /** Flushes the request being sent, if any (the stream stopped); returns 0 or 1. */
    int flushCurrent() {
        if (wr == null) {
            return 0;
        }
        s.completer.flushSend(wr);
        retireCurrent();
        return 1;
    }
}
