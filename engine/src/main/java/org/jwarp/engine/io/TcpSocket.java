package org.jwarp.engine.io;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;

/**
 * A connection's kernel TCP socket, whatever names it: a {@code SocketChannel}
 * ({@link ChannelSocket}: a file descriptor of the process) or an io_uring direct descriptor
 * ({@link DirectSocket}: an entry in a ring's file table). What a connection does with its socket
 * beside the running stream's calls ({@link SocketIo}): complete its connect, the MPA exchange's
 * reads and writes, readiness in its engine thread's {@link IoDriver}, its addresses and MSS, its
 * close. Owner engine thread only.
 */
public interface TcpSocket {

    /**
     * Watches the socket in {@code io} for {@code ops}; {@code io}'s polls hand {@code attachment}.
     *
     * @throws IOException the driver refused the socket (closed, say)
     */
    IoRegistration register(IoDriver io, int ops, Object attachment) throws IOException;

    /** The running stream's calls through {@code io} ({@code capacity}: pieces per call). */
    SocketIo open(IoDriver io, int capacity);

    /**
     * Whether the non-blocking connect completed.
     *
     * @throws IOException it failed (the reason in the message)
     */
    boolean finishConnect() throws IOException;

    /** As {@code SocketChannel.read}: bytes read, 0 if none waited, -1 at the end of the stream. */
    int read(ByteBuffer dst) throws IOException;

    /** As {@code SocketChannel.write}: bytes taken (0: no room). */
    int write(ByteBuffer src) throws IOException;

    /** The local address; null if unknown. */
    InetSocketAddress localAddress();

    /** The peer's address; null if unknown (not connected). */
    InetSocketAddress remoteAddress();

    /** The connection's current TCP MSS ({@link TcpMss}); 0 if it cannot be read. */
    int mss();

    /** Closes the socket (after its registration was cancelled). */
    void close() throws IOException;
}
