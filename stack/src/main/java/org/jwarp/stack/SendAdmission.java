package org.jwarp.stack;

import org.jwarp.stack.StagTable.Region;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.SendFlags;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WrOpcode;
import org.jwarp.wire.rdmap.RdmapError;

/**
 * The local rules a send-queue request meets before {@link StreamTransmitter} starts it: the
 * fence, ORD credit and RFC 7306 support, the STag table's check of every local scatter/gather
 * entry, and the carrying out of the operations that put nothing on the wire (bind, fast
 * registration, invalidation). A request refused here completes with an error and the stream
 * terminates; nothing of it is sent.
 */
final class SendAdmission {

    private final StreamContext s;
    /** The transmitter's gather list, into which the entries resolve. */
    private final SgeCursor gather;

    SendAdmission(StreamContext s, SgeCursor gather) {
        this.s = s;
        this.gather = gather;
    }

    /**
     * Whether the send queue's oldest request may start now: false if it must wait (a fence, ORD
     * credit) or was refused locally. On true its gather list is resolved.
     */
    boolean admit(SendWr next) {
        WrOpcode op = next.opcode();
        // RFC 5040 §5.5: a fenced request waits until every earlier Read has completed.
        if (next.hasFlag(SendFlags.FENCE) && s.orq.size() > 0) {
            return false;
        }
        if (op.consumesOrd() && s.params.ord() == 0) {
            // RFC 6581 §9.1: no more Read Requests outstanding than the peer's IRD; an ORD of 0
            // (the peer has no IRD) allows none: refuse locally, never put one on the wire
            return failLocally(next, WcStatus.LOC_QP_OP_ERR);
        }
        if (op.consumesOrd() && s.orq.full()) {
            return false;
        }
        if (op.needsRfc7306() && !s.params.rfc7306()) {
            // RFC 7306 messages only where the connection allows them (siw answers them with a
            // Terminate): refuse locally.
            return failLocally(next, WcStatus.LOC_QP_OP_ERR);
        }
        if (!resolveSources(next)) {
            return failLocally(next, WcStatus.LOC_PROT_ERR);
        }
        return true;
    }

    /**
     * Whether {@link #admit} would let {@code next} start at once, without waiting and without
     * refusing it; nothing is refused or completed here. On true its gather list is resolved.
     */
    boolean admitsNow(SendWr next) {
        WrOpcode op = next.opcode();
        return !(next.hasFlag(SendFlags.FENCE) && s.orq.size() > 0)
                && !(op.consumesOrd() && (s.params.ord() == 0 || s.orq.full())) && !op.needsRfc7306()
                && resolveSources(next);
    }

    /** Looks up and checks every local scatter/gather entry of a request before anything is sent. */
    private boolean resolveSources(SendWr next) {
        int n = next.numSge();
        if (n > gather.capacity()) {
            return false;
        }
        boolean inline = next.hasFlag(SendFlags.INLINE);
        // iWARP: an RDMA Read names exactly one sink (the Read Request carries one sink STag); an
        // atomic names one 8-byte buffer for the original value.
        boolean resultInto = next.opcode() == WrOpcode.RDMA_READ || next.opcode().isAtomic();
        if (resultInto && n != 1 || next.opcode().isAtomic() && next.sgeLength(0) != 8) {
            return false;
        }
        int access = resultInto ? Access.LOCAL_WRITE : 0;
        for (int i = 0; i < n; i++) {
            if (inline && next.sgeInlineSource(i) != null) {
                gather.resolve(i, null);
                continue;
            }
            Region r = s.stags.lookup(next.sgeLkey(i));
            if (s.stags.checkLocal(r, s.pd, access, next.sgeOffset(i), next.sgeLength(i)) != StagTable.OK) {
                return false;
            }
            gather.resolve(i, r);
        }
        return true;
    }

    /**
     * Carries out a bind or an invalidation, in send-queue order with nothing on the wire; the
     * caller completes it. A refused one completes with {@link WcStatus#MW_BIND_ERR} and ends the
     * stream, as any request refused locally. Returns whether it was carried out.
     */
    boolean executeLocal(SendWr op) {
        boolean done;
        if (op.opcode() == WrOpcode.BIND_MW) {
            Region mr = s.stags.lookup(op.bindMrLkey());
            done = s.stags.bindWindow(op.bindMwRkey(), op.bindNewRkey(), s.pd, s.qpNum, mr, op.bindOffset(),
                    op.bindLength(), op.bindAccess()) == StagTable.OK;
        } else if (op.opcode() == WrOpcode.REG_MR) {
            done = s.stags.fastRegister(op.regStag(), op.regNewStag(), s.pd, op.regSegment(), op.regIova(),
                    op.regAccess()) == StagTable.OK;
        } else {
            done = s.stags.invalidate(op.invalidateRkey(), s.pd);
        }
        return done || failLocally(op, WcStatus.MW_BIND_ERR);
    }

    /**
     * A request that cannot be carried out: it completes with {@code status}, the stream sends a
     * Terminate in its place (RFC 5040 §7.1: header fields zero) and everything after it flushes.
     * Returns false (the request does not start).
     */
    private boolean failLocally(SendWr refused, WcStatus status) {
        // the Terminate first, so that the completion names it
        s.terminator.terminate(RdmapError.LOCAL_CATASTROPHIC, null, 0);
        s.completer.send(refused.wrId(), status, refused.opcode().completionOpcode(), 0, -1);
        s.sendQueue.advance();
        return false;
    }
}
