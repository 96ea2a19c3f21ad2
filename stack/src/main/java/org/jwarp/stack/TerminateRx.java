package org.jwarp.stack;

import org.jwarp.verbs.WcStatus;
import org.jwarp.wire.ddp.DdpHeader;
import org.jwarp.wire.rdmap.SiwTerminateLayout;
import org.jwarp.wire.rdmap.TerminateHeader;

/**
 * The peer's Terminate (RFC 5040 §4.8, §6.2): the request it names completes with the mapped
 * status, everything else is flushed, and it is never answered with a Terminate (§6.2.1).
 */
final class TerminateRx extends RxMessage {

    private final TerminateHeader terminate = new TerminateHeader();

    TerminateRx(StreamContext s) {
        super(s);
    }

    @Override
    void header(DdpHeader h, int payload) {
        // taken as it comes: the stream ends whatever it says
    }

    @Override
    void end(boolean last) {
        accept(s.fpdusReceived == 1);
    }

    /** Acts on the Terminate in the decoder; {@code firstFpdu} if it is the first the peer sent. */
    void accept(boolean firstFpdu) {
        TerminateHeader t = terminate.wrap(s.decoder.rdmapHeaderSegment(), s.decoder.rdmapHeaderOffset(),
                s.decoder.rdmapHeaderLength());
        s.counters.increment(s.cTerminatesRx);
        // siw writes the control word in its own bit-field layout (SiwTerminateLayout)
        int word = SiwTerminateLayout.toRfc(t.controlWord(), firstFpdu);
        s.terminator.peerTerminated(word);
        WcStatus status = TerminateStatus.of(word >>> 28, (word >>> 24) & 0xF, (word >>> 16) & 0xFF);
        // The peer names the failed message; the request that is still open for it is the oldest
        // outstanding Read, or the message being sent. Everything else is flushed.
        OutboundReadQueue orq = s.orq;
        if (orq.size() > 0) {
            s.completer.send(orq.headWrId(), status, orq.headOpcode(), 0, -1);
            orq.pop();
        } else {
            s.tx.failCurrent(status);
        }
        s.enterError();
    }
}
