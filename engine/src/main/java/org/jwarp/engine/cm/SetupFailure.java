package org.jwarp.engine.cm;

import java.util.Locale;
import org.jwarp.stack.MpaHandshake;
import org.jwarp.verbs.CmEvent;
import org.jwarp.wire.rdmap.MpaError;
import org.jwarp.wire.rdmap.TerminateError;

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

    /**
     * A connection that ran but ended before it was established (the responder waiting for the
     * RTR): what ended its setup, with the Terminate behind it ({@code terminateBits}, RDMAP's
     * control bits of RFC 5040 §4.8, or 0).
     */
    public static SetupFailure beforeEstablished(CmEvent.Disconnected.Cause cause, int terminateBits) {
        String before = " before the connection was established";
        return switch (cause) {
            case LOCAL -> new SetupFailure(Kind.LOCAL, "closed locally" + before);
            case PEER_CLOSED -> new SetupFailure(Kind.PROTOCOL, "the peer closed the connection" + before);
            case CONNECTION_LOST -> new SetupFailure(Kind.PROTOCOL, "the TCP connection was lost" + before);
            case TERMINATE_RECEIVED -> new SetupFailure(Kind.NEGOTIATION,
                    "the peer sent a Terminate" + describe(terminateBits) + before);
            case TERMINATE_SENT -> new SetupFailure(Kind.PROTOCOL, "we sent a Terminate" + describe(terminateBits) + before);
        };
    }

    private static String describe(int bits) {
        if (bits == 0) {
            return "";
        }
        int layer = bits >>> 28;
        int type = (bits >>> 24) & 0xF;
        int code = (bits >>> 16) & 0xFF;
        TerminateError e = TerminateError.of(layer, type, code);
        return String.format(Locale.ROOT, " (%s, layer %d type %d code 0x%02x)",
                e == null ? "unknown error" : e.description(), layer, type, code);
    }
}
