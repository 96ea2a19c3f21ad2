package org.jwarp.wire.fpdu;

import java.lang.foreign.MemorySegment;
import org.jwarp.wire.Wire;
import org.jwarp.wire.ddp.DdpHeader;
import org.jwarp.wire.rdmap.DdpError;
import org.jwarp.wire.rdmap.RdmapControl;
import org.jwarp.wire.rdmap.RdmapError;
import org.jwarp.wire.rdmap.RdmapOpcode;
import org.jwarp.wire.rdmap.TerminateError;
import org.jwarp.wire.rdmap.TerminateHeader;

/**
 * The framing rules that the first four bytes of an FPDU (ULPDU_Length, DDP control, RDMAP
 * control) allow {@link FpduDecoder} to check before the rest arrives, and what they tell: the
 * ULPDU length, the RDMAP opcode and the length of the DDP and RDMAP headers. One instance per
 * decoder, refilled per FPDU, so that checking allocates nothing.
 */
final class FpduPreamble {

    /** ULPDU_Length, DDP control, RDMAP control. */
    static final int LENGTH = Fpdu.LENGTH_FIELD + 2;

    private int ulpduLength;
    private RdmapOpcode opcode;
    private int headerLength;

    /**
     * Reads the preamble at the start of {@code fpdu} and checks it. The ULPDU length is set in
     * any case; the opcode and header length only if every check passes.
     *
     * @return the Terminate the first broken rule calls for, or null
     */
    TerminateError check(MemorySegment fpdu, boolean rfc7306Enabled) {
        return check(fpdu, 0, rfc7306Enabled);
    }

    /** As {@link #check(MemorySegment, boolean)}, for an FPDU that starts at {@code at}. */
    TerminateError check(MemorySegment fpdu, long at, boolean rfc7306Enabled) {
        ulpduLength = Wire.u16(fpdu, at);
        int ddpControl = Wire.u8(fpdu, at + Fpdu.LENGTH_FIELD);
        int rdmapControl = Wire.u8(fpdu, at + Fpdu.LENGTH_FIELD + 1);
        boolean tagged = (ddpControl & DdpHeader.T) != 0;
        // A ULPDU shorter than the smallest DDP header cannot be a DDP segment at all; nothing in
        // RFC 5041 names this, so it is reported as a catastrophic error of this stream.
        if (ulpduLength < DdpHeader.TAGGED_LENGTH) {
            return RdmapError.CATASTROPHIC_STREAM;
        }
        // RFC 5041 §4.1, §7.2: DV MUST be 01b; the error type follows the buffer model.
        if ((ddpControl & DdpHeader.DV_MASK) != DdpHeader.VERSION) {
            return tagged ? DdpError.TAGGED_INVALID_DDP_VERSION : DdpError.UNTAGGED_INVALID_DDP_VERSION;
        }
        // RFC 5040 §4.1, §7.2: RV MUST be 01b; an unknown version is a remote operation error.
        if (RdmapControl.version(rdmapControl) != RdmapControl.RV_IETF) {
            return RdmapError.INVALID_RDMAP_VERSION;
        }
        // RFC 5040 §7.2: an opcode that is unassigned, unsupported, or sent in the wrong buffer
        // model is an unexpected opcode.
        RdmapOpcode op = RdmapOpcode.fromCode(rdmapControl);
        if (op == null || (op.rfc7306() && !rfc7306Enabled) || op.tagged() != tagged) {
            return RdmapError.UNEXPECTED_OPCODE;
        }
        int ddpLength = tagged ? DdpHeader.TAGGED_LENGTH : DdpHeader.UNTAGGED_LENGTH;
        int required = ddpLength + op.headerLength();
        // RFC 5040 §4.4, §4.8, RFC 7306 §4: control messages are single segments of a set size
        // (a Read Request is exactly 46 bytes; a Terminate holds at most both headers).
        boolean badSize = op.fixedLength() ? ulpduLength != required
                : ulpduLength < required
                || (op == RdmapOpcode.TERMINATE && ulpduLength > ddpLength + TerminateHeader.MAX_LENGTH);
        if (badSize || (op.singleSegment() && (ddpControl & DdpHeader.L) == 0)) {
            return RdmapError.CATASTROPHIC_STREAM;
        }
        opcode = op;
        headerLength = op == RdmapOpcode.TERMINATE ? ulpduLength : required;
        return null;
    }

    /** Forgets the last FPDU's opcode (a new stream). */
    void clear() {
        opcode = null;
    }

    int ulpduLength() {
        return ulpduLength;
    }

    /** {@return the RDMAP opcode of the last preamble that passed} */
    RdmapOpcode opcode() {
        return opcode;
    }

    /** {@return the DDP and RDMAP headers' length (a Terminate's: the whole ULPDU)} */
    int headerLength() {
        return headerLength;
    }
}
