package org.jwarp.engine.datapath;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import org.jwarp.engine.io.IoDriver;
import org.jwarp.engine.io.IoRegistration;
import org.jwarp.engine.io.TcpSocket;

/**
 * A connection's TCP socket and its place in the owning engine thread's {@link IoDriver}: what
 * readiness wakes the engine for, its addresses for messages, and its close — after the driver
 * let go of it, since a driver that watches the descriptor must not watch its number reused by
 * another socket. Engine thread only.
 */
final class ConnectionSocket {

    private final TcpSocket socket;
    private IoRegistration registration;
    private int interest;

    ConnectionSocket(TcpSocket socket) {
        this.socket = socket;
    }

    TcpSocket socket() {
        return socket;
    }

    /** Joins {@code io}, watched for {@code ops}, handing {@code attachment} to its readiness polls. */
    void register(IoDriver io, int ops, Object attachment) throws IOException {
        interest = ops;
        registration = socket.register(io, ops, attachment);
    }

    /** Leaves the driver it joined (the connection moves, or closes). */
    void cancel() {
        if (registration != null) {
            registration.cancel();
            registration = null;
        }
    }

    /** Changes what readiness wakes the engine for ({@link IoDriver#OP_READ} bits), only when it changes. */
    void interest(int ops) {
        if (registration != null && registration.isValid() && ops != interest) {
            try {
                registration.interestOps(ops);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            interest = ops;
        }
    }

    InetSocketAddress localAddress() {
        return socket.localAddress();
    }

    /** The peer's address; {@code dialed} before (or without) a TCP connection. */
    InetSocketAddress remoteAddress(InetSocketAddress dialed) {
        InetSocketAddress a = socket.remoteAddress();
        return a != null ? a : dialed;
    }

    /** Leaves the driver, then closes; a failed close is returned for the device to report, or null. */
    IOException close() {
        cancel();
        try {
            socket.close();
            return null;
        } catch (IOException e) {
            return new IOException("closing " + socket + " failed", e);
        }
    }
}
