package org.jwarp.cli;

import org.jwarp.verbs.CmEvent;
import org.jwarp.wire.rdmap.TerminateError;

/** One-line descriptions of the connection-manager events that end a command's connection. */
public final class CmEventText {

    private CmEventText() {
    }

    /** {@code e} in words; {@code peer} names the peer where the event does not (may be null). */
    public static String describe(CmEvent e, java.net.InetSocketAddress peer) {
        return switch (e) {
            case CmEvent.Rejected r -> r.reason() + (r.peerPrivateData().length > 0
                    ? " (" + r.peerPrivateData().length + " bytes of private data)" : "");
            case CmEvent.Unreachable u -> "cannot reach " + (u.remote() != null ? u.remote() : peer) + ": " + u.reason();
            case CmEvent.ConnectError c -> "connection setup failed (" + c.kind().name().toLowerCase(java.util.Locale.ROOT)
                    + "): " + c.reason();
            case CmEvent.Disconnected d -> "connection ended: " + cause(d);
            case CmEvent.Established est -> "unexpected Established event";
            case CmEvent.ConnectRequest req -> "unexpected connect request";
            case CmEvent.AddressResolved a -> "unexpected address resolution";
            case CmEvent.RouteResolved r -> "unexpected route resolution";
        };
    }

    private static String cause(CmEvent.Disconnected d) {
        String t = "";
        if (d.terminate() != 0) {
            int layer = d.terminate() >>> 28;
            int type = (d.terminate() >>> 24) & 0xF;
            int code = (d.terminate() >>> 16) & 0xFF;
            TerminateError err = TerminateError.of(layer, type, code);
            t = String.format(" (%s, layer %d type %d code 0x%02x)", err == null ? "unknown error" : err.description(),
                    layer, type, code);
        }
        return switch (d.cause()) {
            case LOCAL -> "closed locally";
            case PEER_CLOSED -> "the peer closed the connection";
            case TERMINATE_SENT -> "we sent a Terminate" + t;
            case TERMINATE_RECEIVED -> "the peer sent a Terminate" + t;
            case CONNECTION_LOST -> "TCP connection lost";
        };
    }
}
