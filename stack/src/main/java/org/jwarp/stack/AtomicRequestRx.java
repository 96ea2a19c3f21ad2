package org.jwarp.stack;

import org.jwarp.stack.StagTable.Region;
import org.jwarp.verbs.Access;
import org.jwarp.wire.ddp.DdpHeader;
import org.jwarp.wire.rdmap.AtomicRequestHeader;
import org.jwarp.wire.rdmap.RdmapError;

/** RFC 7306 Atomic Request (§4.3): checked now, carried out in order when its Response is sent. */
final class AtomicRequestRx extends InboundRequestRx {

    private final AtomicRequestHeader request = new AtomicRequestHeader();
    private int requestId;
    private int atomicOpcode;
    private long data;
    private long mask;
    private long compare;
    private long compareMask;
    private Region target;
    private long targetOffset;

    AtomicRequestRx(StreamContext s) {
        super(s);
    }

    @Override
    void header(DdpHeader h, int payload) {
        if (!admit(h)) {
            return;
        }
        AtomicRequestHeader a = request.wrap(s.decoder.rdmapHeaderSegment(), s.decoder.rdmapHeaderOffset());
        int aop = a.atomicOpcode();
        if (aop != AtomicRequestHeader.AOPCODE_FETCH_ADD && aop != AtomicRequestHeader.AOPCODE_COMPARE_SWAP) {
            s.terminator.terminate(RdmapError.OPERATION_UNSPECIFIED, h, 0); // a reserved AOpCode
            return;
        }
        Region r = s.stags.lookup(a.remoteStag());
        int check = s.stags.checkRemote(r, s.pd, s.qpNum, Access.REMOTE_ATOMIC, a.remoteTo(), 8);
        if (check != StagTable.OK) {
            s.terminator.terminate(protectionError(check), h, 0);
            return;
        }
        // RFC 7306 §4.3, §8: an unaligned target must not be changed: catastrophic for the stream
        if ((a.remoteTo() & 7) != 0) {
            s.terminator.terminate(RdmapError.CATASTROPHIC_STREAM, h, 0);
            return;
        }
        requestId = a.requestId();
        atomicOpcode = aop;
        data = a.addOrSwapData();
        mask = a.addOrSwapMask();
        compare = a.compareData();
        compareMask = a.compareMask();
        target = r;
        targetOffset = a.remoteTo() - r.iova();
    }

    @Override
    void end(boolean last) {
        s.irq.pushAtomic(requestId, atomicOpcode, data, mask, compare, compareMask, target, targetOffset);
        target = null;
        s.expectedReadMsn++;
    }
}
