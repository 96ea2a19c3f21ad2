package org.jwarp.stack;

import org.jwarp.stack.StagTable.Region;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.WcStatus;
import org.jwarp.wire.ddp.DdpHeader;
import org.jwarp.wire.rdmap.DdpError;

/** RDMA Read Response (RFC 5040 §4.5): placed into the sink of the oldest outstanding Read, which completes on the last segment. */
final class ReadResponseRx extends TaggedRx {

    ReadResponseRx(StreamContext s) {
        super(s);
    }

    @Override
    void header(DdpHeader h, int payload) {
        OutboundReadQueue orq = s.orq;
        // The response must match the oldest outstanding Read Request exactly (RFC 5040 §5.2,
        // §5.5 rule 20; siw checks sink STag, TO and length too).
        if (orq.size() == 0 || h.stag() != orq.headSinkStag()) {
            s.terminator.terminate(DdpError.INVALID_STAG, h, payload);
            return;
        }
        if (h.to() != orq.headNextTo() || payload > orq.headRemaining()
                || (h.last() && payload != orq.headRemaining())) {
            s.terminator.terminate(DdpError.BASE_OR_BOUNDS_VIOLATION, h, payload);
            return;
        }
        if (payload > 0) {
            Region r = s.stags.lookup(h.stag());
            int check = s.stags.checkRemote(r, s.pd, Access.LOCAL_WRITE, h.to(), payload);
            if (check == StagTable.MEMORY_FREED) {
                sinkGone(h, payload);
                return;
            }
            if (check != StagTable.OK) {
                s.terminator.terminate(taggedError(check), h, payload);
                return;
            }
            target(r, h.to(), false);
        }
    }

    @Override
    void targetGone() {
        sinkGone(s.decoder.ddpHeader(), segmentPayload());
    }

    /**
     * The application freed the memory of the Read's own sink while the Read was outstanding: the
     * peer did nothing wrong. The Read completes with {@link WcStatus#LOC_PROT_ERR} and the stream
     * ends with a DDP local catastrophic error (RFC 5041 §7.2, error type 0; as siw when a
     * placement target of its own fails), everything after it flushed.
     */
    private void sinkGone(DdpHeader h, int payload) {
        OutboundReadQueue orq = s.orq;
        s.terminator.terminate(DdpError.LOCAL_CATASTROPHIC, h, payload);
        s.completer.send(orq.headWrId(), WcStatus.LOC_PROT_ERR, orq.headOpcode(), 0, -1);
        orq.pop();
    }

    @Override
    void end(boolean last) {
        OutboundReadQueue orq = s.orq;
        orq.headPlaced(segmentPayload());
        if (last) {
            if (orq.headSignaled()) {
                s.completer.send(orq.headWrId(), WcStatus.SUCCESS, orq.headOpcode(), orq.headLength(), -1);
            }
            orq.pop();
        }
    }
}
