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

    @Override
    void end(boolean last) {
        expectedMsn++;
        OutboundReadQueue orq = s.orq;
        orq.headResultRegion().segment().set(ValueLayout.JAVA_LONG_UNALIGNED, orq.headResultOffset(), originalValue);
        if (orq.headSignaled()) {
            s.completer.send(orq.headWrId(), WcStatus.SUCCESS, orq.headOpcode(), 8, -1);
        }
        orq.pop();
    }
}
