package org.jwarp.engine.cm;

import org.jwarp.stack.MpaHandshake;
import org.jwarp.verbs.CmEvent;
import org.jwarp.wire.rdmap.MpaError;

/**
 * How a connection setup ended without a connection, typed: each kind maps to one CM event of the
 * role's ({@link ConnectionSetup#announce}), so that every end of a setup gives exactly one.
 *
 * @param kind   what ended it
 * @param reason one line, for the event
 */
public record SetupFailure(Kind kind, String reason) {

    public enum Kind {
        /** TCP connect failed (refused, no route): the initiator's {@link CmEvent.Unreachable}. */
        UNREACHABLE,
        /** The peer (or the application, on the responder) rejected: the initiator's {@link CmEvent.Rejected}. */
        REJECTED,
        /** A timeout ran out (TCP connect, an MPA wait, the RTR). */
        TIMEOUT,
        /** The peer broke the protocol, closed or reset TCP during setup. */
        PROTOCOL,
        /** The two sides' choices are incompatible (CRC, markers, RTR, IRD). */
        NEGOTIATION,
        /** The application ended the setup (a disconnect, a reset of the queue pair). */
        LOCAL
    }

    /** The {@link CmEvent.ConnectError} kind of this failure. */
    CmEvent.ConnectError.Kind connectErrorKind() {
        return switch (kind) {
            case TIMEOUT -> CmEvent.ConnectError.Kind.TIMEOUT;
            case NEGOTIATION, REJECTED -> CmEvent.ConnectError.Kind.NEGOTIATION;
            case LOCAL -> CmEvent.ConnectError.Kind.LOCAL;
            case PROTOCOL, UNREACHABLE -> CmEvent.ConnectError.Kind.PROTOCOL;
        };
    }

    /** A failed MPA exchange ({@link MpaHandshake.Phase#FAILED}): timed out, refused by negotiation, or malformed. */
    static SetupFailure of(MpaHandshake h, String reason) {
        if (h.timedOut()) {
            return new SetupFailure(Kind.TIMEOUT, reason);
        }
        boolean negotiation = h.terminate().isPresent() && h.terminate().get() != MpaError.INVALID_REQUEST_OR_REPLY;
        return new SetupFailure(negotiation ? Kind.NEGOTIATION : Kind.PROTOCOL, reason);
    }
}
