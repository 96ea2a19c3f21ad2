package org.jwarp.wire.mpa;

import java.util.Objects;
import java.util.Optional;
import org.jwarp.wire.rdmap.MpaError;

/**
 * The responder's decision on an MPA Request ({@link MpaNegotiation#respond}): the Reply to send
 * and either the negotiated parameters or why the connection is refused.
 */
public sealed interface MpaResponse permits MpaResponse.Accept, MpaResponse.Reject {

    /** The Reply frame to send (R=0 for Accept, R=1 for Reject). */
    MpaMessage reply();

    /**
     * Accept: send {@link #reply()}, then switch to FPDU mode and, RFC 5044 §7.1.2 responder
     * fencing, send nothing until the first FPDU (the RTR, if {@code parameters.rtr()} names one)
     * has arrived and been checked.
     */
    record Accept(MpaMessage reply, MpaParameters parameters) implements MpaResponse {
        public Accept {
            Objects.requireNonNull(reply, "reply");
            Objects.requireNonNull(parameters, "parameters");
        }
    }

    /**
     * Reject: send {@link #reply()} (R=1), leave MPA and let the ULP close TCP (RFC 5044 §7.1.2
     * rule 2).
     *
     * @param reason why
     * @param error the RFC 6581 §8 error that names the reason, where there is one, for a
     *     Terminate or for the local report
     * @param message a sentence for logs and the user
     */
    record Reject(MpaMessage reply, Reason reason, Optional<MpaError> error, String message)
            implements MpaResponse {
        public Reject {
            Objects.requireNonNull(reply, "reply");
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(error, "error");
            Objects.requireNonNull(message, "message");
        }
    }

    /** Why a responder refuses a Request. */
    enum Reason {
        /** The ULP refused the connection (its private data, say). */
        ULP_REJECTED,
        /** The initiator wants markers (M=1) and our sender cannot generate them. */
        MARKERS_NOT_SUPPORTED,
        /** The initiator set C=1 and our policy refuses CRC ({@link MpaPolicy.CrcPolicy#REFUSED}). */
        CRC_REFUSED,
        /** The Request's revision is above the one our policy speaks. */
        UNSUPPORTED_REVISION,
        /** Strict IRD: the initiator's ORD is more than the IRD we can provide (RFC 6581 §9.1). */
        INSUFFICIENT_IRD,
        /** Peer-to-peer requested and we accept no RTR type at all (RFC 6581 §9.2). */
        NO_MATCHING_RTR
    }
}
