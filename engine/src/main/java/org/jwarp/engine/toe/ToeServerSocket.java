package org.jwarp.engine.toe;

import java.io.Closeable;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.net.SocketTimeoutException;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;

/**
 * A listening socket whose accepts run on an offload engine thread, as {@link java.net.ServerSocket}.
 * Each {@link #accept()} is a request and its event (seed 001 §III): the calling thread sleeps until
 * the engine has accepted a connection. The accepted socket lives on this listener's queue pair
 * (that of the thread that made the listener); any thread may use it.
 */
public final class ToeServerSocket implements Closeable {

    private final HostQueuePair home;
    private final ConcurrentLinkedQueue<ToeSocket> accepted = new ConcurrentLinkedQueue<>();
    private volatile boolean answered;
    private volatile boolean closing;
    private volatile boolean closeAnswered;
    private volatile Throwable failure;
    private volatile InetSocketAddress local;
    /** The engine's side (engine thread only). */
    private EngineListener engineSide;

    private final BooleanSupplier listening = () -> answered;
    private final BooleanSupplier acceptable = () -> !accepted.isEmpty() || closing;
    private final BooleanSupplier closed = () -> closeAnswered;

    ToeServerSocket(HostQueuePair home) {
        this.home = home;
    }

    void listen(InetSocketAddress at, int backlog) throws IOException {
        home.post(Request.Kind.LISTEN, null, this, backlog, at);
        home.await(listening, Long.MAX_VALUE);
        home.engine().checkAlive();
        if (failure != null) {
            SocketException e = new SocketException("cannot listen on " + at + ": " + failure.getMessage());
            e.initCause(failure);
            throw e;
        }
    }

    /**
     * Waits for the next connection.
     *
     * @return the accepted socket
     * @throws IOException if the listener is closed or failed
     */
    public ToeSocket accept() throws IOException {
        return accept(Long.MAX_VALUE, TimeUnit.NANOSECONDS);
    }

    /**
     * Waits at most {@code timeout} for the next connection.
     *
     * @throws SocketTimeoutException if none came in time
     * @throws SocketException        if the listener is closed
     * @param timeout the longest wait
     * @param unit    the unit of {@code timeout}
     * @return the accepted socket
     */
    public ToeSocket accept(long timeout, TimeUnit unit) throws IOException {
        ToeSocket s = next();
        if (s != null) {
            return s;
        }
        home.post(Request.Kind.ACCEPT, null, this, 0, null);
        home.await(acceptable, timeout == Long.MAX_VALUE ? Long.MAX_VALUE : unit.toNanos(timeout));
        s = next();
        if (s != null) {
            return s;
        }
        home.engine().checkAlive();
        throw new SocketTimeoutException("no connection to " + local + " within " + timeout + " "
                + unit.name().toLowerCase(java.util.Locale.ROOT));
    }

    private ToeSocket next() throws IOException {
        if (closing) {
            throw new SocketException("listener closed");
        }
        home.drain();
        return accepted.poll();
    }

    /** {@return the bound address (with the port the system chose for port 0)} */
    public InetSocketAddress getLocalSocketAddress() {
        return local;
    }

    /** Stops listening; connections accepted and not yet taken are closed. */
    @Override
    public void close() throws IOException {
        if (closing) {
            return;
        }
        closing = true;
        if (!home.engine().isGone()) {
            home.post(Request.Kind.CLOSE, null, this, 0, null);
            home.await(closed, Long.MAX_VALUE);
        }
        for (ToeSocket s = accepted.poll(); s != null; s = accepted.poll()) {
            s.close();
        }
    }

    /** {@return whether {@link #close()} has run} */
    public boolean isClosed() {
        return closing;
    }

    /** {@return the queue pair this listener lives on, and the sockets it accepts} */
    HostQueuePair home() {
        return home;
    }

    /** {@return the engine's side of this listener (engine thread only)} */
    EngineListener engineSide() {
        return engineSide;
    }

    /** Engine thread: the engine's side is made. */
    void attach(EngineListener side) {
        engineSide = side;
    }

    void onListening(InetSocketAddress bound, Throwable f) {
        local = bound;
        failure = f;
        answered = true;
    }

    void onAccepted(ToeSocket s) {
        accepted.add(s);
    }

    void onClosed() {
        closeAnswered = true;
    }

    @Override
    public String toString() {
        return "ToeServerSocket{" + local + (closing ? ", closed" : "") + '}';
    }
}
