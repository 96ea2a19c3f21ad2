package org.jwarp.wire.mpa;

import java.util.Objects;
import java.util.Optional;
import org.jwarp.wire.rdmap.MpaError;

/** The initiator's conclusion from the Reply it received ({@link MpaNegotiation#complete}). */
public sealed interface MpaCompletion permits MpaCompletion.Established, MpaCompletion.Failed {

    /**
     * The connection enters full operation. If {@code parameters.rtr()} names an RTR, RFC 6581
     * §9.2: send it as the very first FPDU, before anything of the ULP's.
     */
    record Established(MpaParameters parameters) implements MpaCompletion {
        public Established {
            Objects.requireNonNull(parameters, "parameters");
        }
    }

    /**
     * Setup failed. If {@link #terminate()} is present, RFC 6581 §8/§9 asks for a Terminate with
     * that error (layer 2, type 0) before closing; otherwise close.
     *
     * @param reason why
     * @param terminate the MPA error to send in a Terminate, where RFC 6581 calls for one
     * @param message a sentence for logs and the user, e.g. "peer rejected the connection"
     * @param peerPrivateData the private data of the Reply (a rejecting peer may explain itself)
     */
    record Failed(Reason reason, Optional<MpaError> terminate, String message,
            byte[] peerPrivateData) implements MpaCompletion {
        public Failed {
            Objects.requireNonNull(reason, "reason");
            Objects.requireNonNull(terminate, "terminate");
            Objects.requireNonNull(message, "message");
            peerPrivateData = peerPrivateData.clone();
        }

        @Override
        public byte[] peerPrivateData() {
            return peerPrivateData.clone();
        }
    }

    /** Why an initiator gives up on a Reply. */
    enum Reason {
        /** The Reply has R=1. */
        PEER_REJECTED,
        /** The Reply breaks RFC 6581 §6 (revision above ours, enhanced did not answer enhanced). */
        INVALID_REPLY,
        /** The responder wants markers (M=1) and our sender cannot generate them. */
        MARKERS_NOT_SUPPORTED,
        /** The responder set C=1 and our policy refuses CRC. */
        CRC_REFUSED,
        /** The responder's ORD exceeds the IRD we can provide (RFC 6581 §9.1; Terminate 0x06). */
        INSUFFICIENT_IRD,
        /** Peer-to-peer: no RTR both sides support (RFC 6581 §9.2; Terminate 0x07). */
        NO_MATCHING_RTR
    }
}
