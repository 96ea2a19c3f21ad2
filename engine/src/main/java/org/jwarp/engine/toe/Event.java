package org.jwarp.engine.toe;

/**
 * One slot of an event queue (engine to host, seed 001 §III): what the engine tells the host. The
 * slot's sequence in the ring is the paper's "ready" flag: the host sees an event once it is
 * published and not before.
 */
final class Event {

    enum Kind {
        /** The socket is connected ({@link #failure} null) or could not be. */
        CONNECTED,
        /** The listener is bound (to {@link #address}) or could not be. */
        LISTENING,
        /** The listener accepted {@link #socket}. */
        ACCEPTED,
        /** Anonymous buffer {@link #buffer} holds {@link #length} bytes of the socket's stream. */
        RECEIVED,
        /** The peer ended its output: no more data after the buffers already passed. */
        END_OF_STREAM,
        /** The socket's sent count reached what a {@link Request.Kind#NOTIFY_SENT} asked for. */
        SENT,
        /** The connection failed ({@link #failure}); no more data after the buffers already passed. */
        FAILED,
        /** The socket or listener is closed. */
        CLOSED
    }

    private Kind kind;
    private ToeSocket socket;
    private ToeServerSocket listener;
    private int buffer;
    private int length;
    private java.net.InetSocketAddress address;
    private Throwable failure;

    /** Engine thread: fills the claimed slot before it is published. */
    void set(Kind kind, ToeSocket socket, ToeServerSocket listener, int buffer, int length,
             java.net.InetSocketAddress address, Throwable failure) {
        this.kind = kind;
        this.socket = socket;
        this.listener = listener;
        this.buffer = buffer;
        this.length = length;
        this.address = address;
        this.failure = failure;
    }

    /** Host, the thread taking events: attaches this event to its socket or listener (the paper's interrupt routine). */
    void deliver() {
        switch (kind) {
            case CONNECTED -> socket.onConnected(address, failure);
            case LISTENING -> listener.onListening(address, failure);
            case ACCEPTED -> listener.onAccepted(socket);
            case RECEIVED -> socket.onReceived(buffer, length);
            case END_OF_STREAM -> socket.onEndOfStream();
            case SENT -> { }                        // the sent count is mirrored; the event only wakes the writer
            case FAILED -> socket.onFailed(failure);
            case CLOSED -> {
                if (socket != null) {
                    socket.onClosed();
                } else {
                    listener.onClosed();
                }
            }
        }
    }

    void clear() {
        kind = null;
        socket = null;
        listener = null;
        buffer = -1;
        length = 0;
        address = null;
        failure = null;
    }
}
