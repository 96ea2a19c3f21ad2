package org.jwarp.stack;

import org.jwarp.stack.StagTable.Region;
import org.jwarp.verbs.Access;
import org.jwarp.wire.ddp.DdpHeader;
import org.jwarp.wire.rdmap.ReadRequestHeader;

/** RDMA Read Request (RFC 5040 §4.4): the source is checked now; the Response is queued when the FPDU holds. */
final class ReadRequestRx extends InboundRequestRx {

    private final ReadRequestHeader request = new ReadRequestHeader();
    private int sinkStag;
    private long sinkTo;
    private long size;
    private Region source;
    private long sourceOffset;

    ReadRequestRx(StreamContext s) {
        super(s);
    }

    @Override
    void header(DdpHeader h, int payload) {
        if (!admit(h)) {
            return;
        }
        ReadRequestHeader rr = request.wrap(s.decoder.rdmapHeaderSegment(), s.decoder.rdmapHeaderOffset());
        sinkStag = rr.sinkStag();
        sinkTo = rr.sinkTo();
        size = rr.readSize();
        source = null;
        sourceOffset = 0;
        // RFC 5040 §5.2: a zero-length Read is answered without checking the source.
        if (size > 0) {
            Region r = s.stags.lookup(rr.sourceStag());
            int check = s.stags.checkRemote(r, s.pd, s.qpNum, Access.REMOTE_READ, rr.sourceTo(), size);
            if (check != StagTable.OK) {
                s.terminator.terminate(protectionError(check), h, 0);
                return;
            }
            source = r;
            sourceOffset = rr.sourceTo() - r.iova();
        }
    }

    @Override
    void end(boolean last) {
        s.irq.push(sinkStag, sinkTo, size, source, sourceOffset);
        s.expectedReadMsn++;
    }
}
