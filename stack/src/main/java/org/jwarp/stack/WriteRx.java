package org.jwarp.stack;

import org.jwarp.stack.StagTable.Region;
import org.jwarp.verbs.Access;
import org.jwarp.wire.ddp.DdpHeader;

/** RDMA Write (RFC 5040 §4.3): placed, never delivered (§5.1); nothing completes on this side. */
final class WriteRx extends TaggedRx {

    WriteRx(StreamContext s) {
        super(s);
    }

    @Override
    void header(DdpHeader h, int payload) {
        // RFC 5041 §5.2: a zero-length tagged message is not checked (it is how a Write RTR arrives)
        if (payload == 0) {
            return;
        }
        Region r = s.stags.lookup(h.stag());
        int check = s.stags.checkRemote(r, s.pd, s.qpNum, Access.REMOTE_WRITE, h.to(), payload);
        if (check != StagTable.OK) {
            s.terminator.terminate(taggedError(check), h, payload);
            return;
        }
        target(r, h.to(), h.last());
    }

    @Override
    void targetGone() {
        // RFC 5040 §4.8: remote protection error, invalid STag (as when the header check finds it)
        s.terminator.terminate(taggedError(StagTable.MEMORY_FREED), s.decoder.ddpHeader(), segmentPayload());
    }
}
