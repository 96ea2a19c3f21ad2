package org.jwarp.stack;

import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import org.jwarp.verbs.WcStatus;
import org.jwarp.wire.ddp.DdpHeader;
import org.jwarp.wire.rdmap.AtomicResponseHeader;
import org.jwarp.wire.rdmap.DdpError;
import org.jwarp.wire.rdmap.RdmapError;
import org.jwarp.wire.rdmap.RdmapOpcode;

/** RFC 7306 Atomic Response (§4.4): the original value goes to the requester's buffer, and the atomic completes. */
final class AtomicResponseRx extends RxMessage {

    private int expectedMsn = 1;
    private long originalValue;

    AtomicResponseRx(StreamContext s) {
        super(s);
    }

    @Override
    void header(DdpHeader h, int payload) {
        if (h.qn() != RdmapOpcode.QN_ATOMIC_RESPONSE) {
            s.terminator.terminate(DdpError.INVALID_QN, h, 0);
            return;
        }
        if (h.msn() != expectedMsn) {
            s.terminator.terminate(DdpError.MSN_RANGE_NOT_VALID, h, 0);
            return;
        }
        MemorySegment hs = s.decoder.rdmapHeaderSegment();
        long ho = s.decoder.rdmapHeaderOffset();
        OutboundReadQueue orq = s.orq;
        // RFC 7306 §4.4: the response must answer the oldest outstanding request, by identifier
        if (orq.size() == 0 || !orq.headAtomic() || AtomicResponseHeader.requestId(hs, ho) != orq.headRequestId()) {
            s.terminator.terminate(RdmapError.OPERATION_UNSPECIFIED, h, 0);
            return;
        }
        originalValue = AtomicResponseHeader.originalValue(hs, ho);
    }

    /**
     * The application freed the atomic's own result buffer: as a Read whose sink is gone, the
     * stream ends with a DDP local catastrophic error (RFC 5041 §7.2, error type 0) and the atomic
     * completes with {@link WcStatus#LOC_PROT_ERR}.
     */
    @Override
    boolean memoryGone() {
        OutboundReadQueue orq = s.orq;
        if (orq.size() == 0 || !orq.headAtomic() || orq.headResultRegion().segment().scope().isAlive()) {
            return false;
        }
        s.terminator.terminate(DdpError.LOCAL_CATASTROPHIC, s.decoder.ddpHeader(), 0);
        s.completer.send(orq.headWrId(), WcStatus.LOC_PROT_ERR, orq.headOpcode(), 0, -1);
        orq.pop();
        return true;
    }

    @Override
    void end(boolean last) {
        expectedMsn++;
        OutboundReadQueue orq = s.orq;
        MemorySegment result = orq.headResultRegion().segment();
        if (memoryGone()) {
            return;
        }
        result.set(ValueLayout.JAVA_LONG_UNALIGNED, orq.headResultOffset(), originalValue);
        if (orq.headSignaled()) {
            s.completer.send(orq.headWrId(), WcStatus.SUCCESS, orq.headOpcode(), 8, -1);
        }
        orq.pop();
    }
}
