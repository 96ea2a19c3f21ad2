package org.jwarp.stack;

import java.lang.foreign.MemorySegment;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.wire.ddp.DdpHeader;
import org.jwarp.wire.rdmap.RdmapOpcode;
import org.jwarp.wire.rdmap.TerminateError;
import org.jwarp.wire.rdmap.TerminateHeader;

/**
 * The stream's errors: builds the one Terminate this side sends (RFC 5040 §4.8, §7.1; the first
 * error wins), holds a header violation until its FPDU's CRC is known, and keeps the peer's
 * Terminate, so that error completions carry the cause.
 */
final class Terminator {

    private final StreamContext s;
    private final MemorySegment message = MemorySegment.ofArray(new byte[DdpHeader.UNTAGGED_LENGTH
            + TerminateHeader.MAX_LENGTH]);
    private int length;
    private boolean pending;
    private TerminateError cause;
    /** A DDP or RDMAP violation in the current FPDU's header, answered once its CRC holds; or null. */
    private TerminateError headerViolation;
    /** Set while the current FPDU's header is being checked. */
    private boolean inHeader;
    /** The Terminate Control bits (layer, type, code) the peer sent, or -1. */
    private int peerTerminate = -1;

    Terminator(StreamContext s) {
        this.s = s;
    }

    /**
     * Queues the Terminate for {@code error}: the failed message's DDP header (and the Read Request
     * header for remote protection errors on a Read) goes in as RFC 5040 Figure 10 says. Placement
     * stops at once; the Terminate is sent by the next transmit.
     */
    void terminate(TerminateError error, DdpHeader failed, int segmentPayloadLength) {
        if (cause != null || headerViolation != null || s.state != RdmapStream.State.RTS) {
            return;
        }
        // RFC 5040 §5.7 via reference: Terminate is untagged on QN 2, MSN 1, MO 0, L set.
        int h = DdpHeader.writeUntagged(message, 0, true, RdmapOpcode.TERMINATE, 0, RdmapOpcode.QN_TERMINATE, 1, 0);
        int t;
        if (failed != null && error.includesDdpHeader()) {
            MemorySegment rdma = null;
            long rdmaOffset = 0;
            if (error.includesRdmaHeader() && s.decoder.opcode() == RdmapOpcode.RDMA_READ_REQUEST) {
                rdma = s.decoder.rdmapHeaderSegment();
                rdmaOffset = s.decoder.rdmapHeaderOffset();
            }
            t = TerminateHeader.write(message, h, error, segmentPayloadLength, failed.segment(), failed.offset(),
                    failed.length(), rdma, rdmaOffset);
        } else {
            t = TerminateHeader.write(message, h, error, -1, null, 0, 0, null, 0);
        }
        length = h + t;
        if (inHeader) {
            // RFC 5044 §4.4: an FPDU is passed to DDP only once its CRC is good, so a header that
            // breaks a DDP or RDMAP rule is answered at the FPDU's end: with its own error if the
            // CRC holds, with MPA's CRC error if it does not (the header may be the corrupted part).
            // The Terminate is built now, while the header is at hand.
            headerViolation = error;
            return;
        }
        queue(error);
    }

    private void queue(TerminateError error) {
        cause = error;
        pending = true;
        s.state = RdmapStream.State.TERMINATING;
    }

    void inHeader(boolean checking) {
        inHeader = checking;
    }

    /** True while the current FPDU's header broke a rule that waits for the CRC's verdict. */
    boolean headerViolated() {
        return headerViolation != null;
    }

    /** The FPDU's CRC held: a header violation found at its start is now answered. */
    void answerHeaderViolation() {
        TerminateError error = headerViolation;
        headerViolation = null;
        queue(error);
    }

    /** The FPDU failed framing (its CRC, most often): that is the error to answer, not its header's. */
    void dropHeaderViolation() {
        headerViolation = null;
    }

    /** The LLP failed: no Terminate can be sent; {@code error} is the cause if none was found before. */
    void connectionLost(TerminateError error) {
        if (cause == null) {
            cause = error;
        }
        pending = false;
    }

    boolean pending() {
        return pending;
    }

    int length() {
        return length;
    }

    MemorySegment message() {
        return message;
    }

    void sent() {
        pending = false;
    }

    TerminateError cause() {
        return cause;
    }

    int peerTerminate() {
        return peerTerminate;
    }

    /** The peer's Terminate Control bits (RFC layout, layer/type/code in the top 16 bits). */
    void peerTerminated(int word) {
        peerTerminate = word & 0xFFFF_0000;
    }

    /** An error completion names the Terminate behind it: the peer's if it sent one, else ours. */
    void stamp(WorkCompletion wc, WcStatus status) {
        if (status == WcStatus.SUCCESS || status == WcStatus.WR_FLUSH_ERR) {
            return;
        }
        if (peerTerminate >= 0) {
            wc.terminate(peerTerminate >>> 28, (peerTerminate >>> 24) & 0xF, (peerTerminate >>> 16) & 0xFF, true);
        } else if (cause != null) {
            wc.terminate(cause.layer(), cause.errorType(), cause.errorCode(), false);
        }
    }
}
