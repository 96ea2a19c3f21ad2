package org.jwarp.stack;

import org.jwarp.wire.ddp.DdpHeader;
import org.jwarp.wire.rdmap.DdpError;
import org.jwarp.wire.rdmap.RdmapError;
import org.jwarp.wire.rdmap.RdmapOpcode;
import org.jwarp.wire.rdmap.TerminateError;

/**
 * Requests on QN 1 that the responder answers with no application thread: RDMA Read Requests and
 * RFC 7306 Atomic Requests, which share the queue number, its MSN sequence and the IRD.
 */
abstract class InboundRequestRx extends RxMessage {

    InboundRequestRx(StreamContext s) {
        super(s);
    }

    /**
     * The checks every request on QN 1 passes before it is looked at: the queue number, the next
     * MSN of the QN 1 sequence (RFC 5041 §7.1), and an IRD credit — RFC 5040 §6.1 for Read
     * Requests, RFC 7306 §5 for Atomic Requests (siw: 0/2/0x07 past IRD). False if a Terminate was
     * queued.
     */
    final boolean admit(DdpHeader h) {
        if (h.qn() != RdmapOpcode.QN_READ_REQUEST) {
            s.terminator.terminate(DdpError.INVALID_QN, h, 0);
            return false;
        }
        if (h.msn() != s.expectedReadMsn) {
            s.terminator.terminate(DdpError.MSN_RANGE_NOT_VALID, h, 0);
            return false;
        }
        if (s.irq.full() || s.params.ird() == 0) {
            s.terminator.terminate(RdmapError.CATASTROPHIC_STREAM, h, 0);
            return false;
        }
        return true;
    }

    /** The RDMAP error for a failed {@link StagTable#checkRemote} of a request's source. */
    static TerminateError protectionError(int check) {
        return switch (check) {
            case StagTable.NOT_ASSOCIATED -> RdmapError.STAG_NOT_ASSOCIATED;
            case StagTable.ACCESS_DENIED -> RdmapError.ACCESS_RIGHTS_VIOLATION;
            case StagTable.OUT_OF_BOUNDS -> RdmapError.BASE_OR_BOUNDS_VIOLATION;
            case StagTable.TO_WRAP -> RdmapError.TO_WRAP;
            default -> RdmapError.INVALID_STAG;
        };
    }
}
