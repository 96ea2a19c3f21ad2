package org.jwarp.bench.transport.sockets;

import java.io.IOException;
import java.net.BindException;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.SocketTimeoutException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import org.jwarp.bench.perf.PerfException;

/**
 * Connection setup over TCP sockets, one way for every benchmark that runs over sockets: the perf
 * tests' {@link SocketSession} and the experiments' side processes. It listens, accepts within a
 * time, and connects within a time; a failure the user can act on is one line
 * ({@link PerfException}). The channels it returns are blocking; what runs over them is the
 * caller's.
 */
public final class SocketSetup {

    private SocketSetup() {
    }

    /**
     * Listens on {@code bind} with room for {@code backlog} connections waiting to be accepted.
     *
     * @throws PerfException with one line if the port is in use or cannot be bound
     */
    public static ServerSocketChannel listen(InetSocketAddress bind, int backlog) {
        try {
            ServerSocketChannel ssc = ServerSocketChannel.open();
            try {
                ssc.bind(bind, backlog);
            } catch (BindException e) {
                ssc.close();
                throw new PerfException(String.valueOf(e.getMessage()).contains("in use")
                        ? "port " + bind.getPort() + " is in use: stop what uses it, or give another port with -p"
                        : "cannot listen on " + where(bind) + ": " + e.getMessage());
            }
            return ssc;
        } catch (IOException e) {
            throw new PerfException("cannot listen on " + where(bind) + ": " + e.getMessage());
        }
    }

    /** The port {@code ssc} listens on. */
    public static int port(ServerSocketChannel ssc) {
        try {
            return ((InetSocketAddress) ssc.getLocalAddress()).getPort();
        } catch (IOException e) {
            throw new PerfException("the listening socket failed: " + e.getMessage());
        }
    }

    /**
     * The next connection on {@code ssc} (which must be blocking).
     *
     * @throws PerfException if no client connects within {@code timeout}
     */
    public static SocketChannel accept(ServerSocketChannel ssc, Duration timeout) throws IOException {
        ServerSocket ss = ssc.socket();
        ss.setSoTimeout((int) Math.clamp(timeout.toMillis(), 1, Integer.MAX_VALUE));
        try {
            return ss.accept().getChannel();
        } catch (SocketTimeoutException e) {
            throw new PerfException("no client connected in " + timeout.toSeconds() + " s");
        }
    }

    /**
     * A connection to {@code server}, made within {@code timeout}.
     *
     * @param peer what the line calls the server before its address (e.g. {@code "a jwarp server at "}), or ""
     * @param hint what to add to the line when nothing listens there (e.g. what to start first), or ""
     * @throws PerfException with one line if the server is unknown or cannot be reached
     */
    public static SocketChannel connect(InetSocketAddress server, Duration timeout, String peer, String hint)
            throws IOException {
        String where = peer + where(server);
        if (server.isUnresolved()) {
            throw new PerfException("unknown host '" + server.getHostString() + "'");
        }
        SocketChannel ch = SocketChannel.open();
        try {
            ch.socket().connect(server, (int) Math.clamp(timeout.toMillis(), 1, Integer.MAX_VALUE));
            return ch;
        } catch (ConnectException e) {
            ch.close();
            throw new PerfException("cannot reach " + where + ": " + e.getMessage() + hint);
        } catch (SocketTimeoutException e) {
            ch.close();
            throw new PerfException("cannot reach " + where + ": no answer in " + timeout.toSeconds() + " s");
        } catch (IOException | RuntimeException e) {
            ch.close();
            throw e;
        }
    }

    private static String where(InetSocketAddress a) {
        return a.getHostString() + ":" + a.getPort();
    }
}
