package org.jwarp.stack;

import java.lang.foreign.MemorySegment;
import org.jwarp.stack.StagTable.Region;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.wire.ddp.DdpHeader;
import org.jwarp.wire.rdmap.DdpError;
import org.jwarp.wire.rdmap.ImmediateDataHeader;
import org.jwarp.wire.rdmap.RdmapError;
import org.jwarp.wire.rdmap.RdmapOpcode;

/**
 * The untagged messages on QN 0 — the four Sends (RFC 5040 §4.3) and RFC 7306's Immediate Data
 * (§4.2): each consumes the oldest posted receive, fills its scatter list in MSN and MO order and
 * completes it on its last segment.
 */
final class SendRx extends RxMessage {

    private final SgeCursor scatter;
    /** The receive being filled, or null between messages. */
    private RecvWr recv;
    private int expectedMsn = 1;
    private RdmapOpcode opcode;
    private int invalidateStag;
    private long immediateData;

    SendRx(StreamContext s) {
        super(s);
        this.scatter = new SgeCursor(s.maxSge);
    }

    @Override
    void header(DdpHeader h, int payload) {
        Terminator t = s.terminator;
        // RFC 5041 §7.1: the QN, the MSN window and the MO are checked before placement.
        if (h.qn() != RdmapOpcode.QN_SEND) {
            t.terminate(DdpError.INVALID_QN, h, payload);
            return;
        }
        if (h.msn() != expectedMsn) {
            t.terminate(DdpError.MSN_RANGE_NOT_VALID, h, payload);
            return;
        }
        if (recv == null) {
            if (h.mo() != 0) {
                t.terminate(DdpError.INVALID_MO, h, payload);
                return;
            }
            // RFC 5040 §5.3: each Send consumes one posted receive; iWARP has no RNR retry, so a
            // Send with no receive posted is an error (RFC 5041 §7.2, no buffer available).
            RecvWr next = s.recvQueue.peek();
            if (next == null) {
                t.terminate(DdpError.NO_BUFFER_AVAILABLE, h, payload);
                return;
            }
            recv = next;
            if (!resolveSinks(next)) {
                // RFC 5041 §7.2 error type 0: the receive's buffer is unusable (a bad lkey, or its
                // memory freed, StagTable.MEMORY_FREED); the receive completes with LOC_PROT_ERR
                t.terminate(DdpError.LOCAL_CATASTROPHIC, h, payload);
                return;
            }
            scatter.start(next);
        } else if (Integer.toUnsignedLong(h.mo()) != scatter.position()) {
            t.terminate(DdpError.INVALID_MO, h, payload);
            return;
        }
        if (scatter.position() + payload > recv.totalLength()) {
            t.terminate(DdpError.MESSAGE_TOO_LONG, h, payload);
            return;
        }
        opcode = s.decoder.opcode();
        if (opcode.invalidates() && h.last()) {
            invalidateStag = h.invalidateStag();
        }
        if (isImmediate()) {
            immediateData = ImmediateDataHeader.immediateData(s.decoder.rdmapHeaderSegment(),
                    s.decoder.rdmapHeaderOffset());
        }
    }

    private boolean isImmediate() {
        return opcode == RdmapOpcode.IMMEDIATE_DATA || opcode == RdmapOpcode.IMMEDIATE_DATA_WITH_SE;
    }

    private boolean resolveSinks(RecvWr wr) {
        int n = wr.numSge();
        if (n > scatter.capacity()) {
            return false;
        }
        for (int i = 0; i < n; i++) {
            Region r = s.stags.lookup(wr.sgeLkey(i));
            if (s.stags.checkLocal(r, s.pd, Access.LOCAL_WRITE, wr.sgeOffset(i), wr.sgeLength(i)) != StagTable.OK) {
                return false;
            }
            scatter.resolve(i, r);
        }
        return true;
    }

    @Override
    void payload(MemorySegment src, long offset, int length, int position) {
        scatter.scatter(src, offset, length);
    }

    @Override
    void offer(DirectPlacement into, int position, long n, boolean toEnd) {
        scatter.offer(into, n);
    }

    @Override
    boolean memoryGone() {
        if (recv == null || !scatter.memoryGone()) {
            return false;
        }
        // the receive's own buffer was freed after the header was checked: as when the header
        // check finds it (resolveSinks), DDP local catastrophic, and the receive completes with
        // LOC_PROT_ERR (flushCurrent)
        s.terminator.terminate(DdpError.LOCAL_CATASTROPHIC, s.decoder.ddpHeader(), segmentPayload());
        return true;
    }

    @Override
    void placed(long n) {
        scatter.advance(n);
    }

    @Override
    void end(boolean last) {
        if (last) {
            deliver();
        }
    }

    private void deliver() {
        RecvWr done = recv;
        int flags = 0;
        if (opcode.invalidates()) {
            // RFC 5040 §5.3: the STag named by a Send with Invalidate must belong to this stream.
            if (!s.stags.invalidate(invalidateStag, s.pd)) {
                s.terminator.terminate(RdmapError.PROTECTION_STAG_CANNOT_BE_INVALIDATED, s.decoder.ddpHeader(), 0);
                return;
            }
            flags |= WorkCompletion.WITH_INV;
        }
        recv = null;
        expectedMsn++;
        boolean immediate = isImmediate();
        WorkCompletion wc = s.completer.claimRecv();
        if (wc != null) {
            wc.reset().wrId(done.wrId()).status(WcStatus.SUCCESS)
                    .opcode(immediate ? WcOpcode.RECV_RDMA_WITH_IMM : WcOpcode.RECV)
                    .byteLen(immediate ? 0 : scatter.position()).qpNum(s.qpNum);
            if (immediate) {
                wc.immData(immediateData);
                flags |= WorkCompletion.WITH_IMM;
            }
            if ((flags & WorkCompletion.WITH_INV) != 0) {
                wc.invalidatedRkey(invalidateStag);
            }
            wc.flags(flags);
        }
        // the receive's slot goes back before its completion shows: a consumer that re-posts as
        // soon as it reaps the completion must find room, even on a queue that was full
        s.recvQueue.advance();
        if (wc != null) {
            s.completer.publishRecv(opcode.solicitedEvent());
        }
    }

    /**
     * The stream stopped: the receive being filled completes — with the error that stopped it when
     * that was this message's (too long for it, or its buffer unusable), else flushed. Returns 0 or 1.
     */
    int flushCurrent() {
        if (recv == null) {
            return 0;
        }
        var cause = s.terminator.cause();
        WcStatus st = cause == DdpError.MESSAGE_TOO_LONG ? WcStatus.LOC_LEN_ERR
                : cause == DdpError.LOCAL_CATASTROPHIC ? WcStatus.LOC_PROT_ERR : WcStatus.WR_FLUSH_ERR;
        s.completer.recv(recv, st);
        recv = null;
        s.recvQueue.advance();
        return 1;
    }
}
