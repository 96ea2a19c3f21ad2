package org.jwarp.engine.toe;

/**
 * One slot of a request queue (host to engine, seed 001 §III): what the host asks of the engine,
 * and for which socket or listener. Slots are reused; the host fills one and publishes it.
 */
final class Request {

    enum Kind {
        /** Open a socket and connect it to {@link #address}; answered by {@link Event.Kind#CONNECTED}. */
        CONNECT,
        /** Bind a listener to {@link #address} with a backlog of {@link #value}; answered by {@link Event.Kind#LISTENING}. */
        LISTEN,
        /** Hand over the next incoming connection; answered by {@link Event.Kind#ACCEPTED}. */
        ACCEPT,
        /** Send {@link #value} bytes more of the socket's send buffer (a descriptor; no answer). */
        SEND,
        /** Answer with {@link Event.Kind#SENT} once the socket's sent count reaches {@link #value}. */
        NOTIFY_SENT,
        /** Once everything written is sent, end the output (FIN); no answer. */
        SHUTDOWN_OUTPUT,
        /** Close the socket or listener; answered by {@link Event.Kind#CLOSED}. */
        CLOSE
    }

    private Kind kind;
    private ToeSocket socket;
    private ToeServerSocket listener;
    private long value;
    private java.net.SocketAddress address;

    /** Host: fills the claimed slot before it is published. */
    void set(Kind kind, ToeSocket socket, ToeServerSocket listener, long value, java.net.SocketAddress address) {
        this.kind = kind;
        this.socket = socket;
        this.listener = listener;
        this.value = value;
        this.address = address;
    }

    Kind kind() {
        return kind;
    }

    ToeSocket socket() {
        return socket;
    }

    ToeServerSocket listener() {
        return listener;
    }

    long value() {
        return value;
    }

    java.net.SocketAddress address() {
        return address;
    }

    void clear() {
        kind = null;
        socket = null;
        listener = null;
        value = 0;
        address = null;
    }
}
