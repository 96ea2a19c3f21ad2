package org.jwarp.engine.cm;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import org.jwarp.engine.datapath.Connection;
import org.jwarp.engine.io.ChannelSocket;
import org.jwarp.engine.io.DirectSocket;
import org.jwarp.engine.io.SocketDescriptor;
import org.jwarp.engine.io.UringDirectIoDriver;
import org.jwarp.engine.provider.JwarpDevice;
import org.jwarp.engine.rss.RssSteering;
import org.jwarp.engine.runtime.EngineWorker;
import org.jwarp.verbs.CmEventHandler;
import org.jwarp.verbs.Listener;

/**
 * A listening endpoint. Accepting runs on a thread of its own, blocked in {@code accept()} (no CPU
 * while nobody connects), rather than in the engine's duty cycle: a non-blocking accept allocates
 * on every call, which the data path must not (DESIGN rule 3). Each accepted connection is handed
 * to the engine thread, which runs MPA setup and delivers the connection events. What a connection
 * may hold while it is set up, and when a silent one gives way, is {@link SetupAdmission}'s rule:
 * only requests awaiting the application's decision count against its backlog.
 *
 * <p>With direct sockets ({@code uring-direct}) no thread of its own accepts: the rings of the
 * listener's engine thread do ({@link UringDirectIoDriver#listen}), each connection straight into
 * a ring's file table, and that engine thread owns the connection.
 */
public final class JwarpListener implements Listener {

    private final JwarpDevice device;
    private final ServerSocketChannel server;
    private final CmEventHandler handler;
    private final InetSocketAddress local;
    private final Thread acceptor;
    /** Accepted sockets inherit their options from the listening socket ({@code ListeningOptions}). */
    private final boolean optionsInherited;
    /** What may hold this listener's resources during setup: silent clients apart from the backlog. */
    private final SetupAdmission<ResponderSetup> admission;
    /** Silent clients dropped to make room (bound or pressure); written by engine threads. */
    private final java.util.concurrent.atomic.AtomicLong dropped = new java.util.concurrent.atomic.AtomicLong();
    private volatile boolean closed;
    private final EngineWorker worker;
    /** Direct sockets: the driver's handle of this listener's accepts (engine thread). */
    private Object listening;

    JwarpListener(JwarpDevice device, ServerSocketChannel server, boolean optionsInherited, int backlog,
                  CmEventHandler handler, EngineWorker worker) throws IOException {
        this.device = device;
        this.optionsInherited = optionsInherited;
        this.admission = SetupAdmission.withDefaults(backlog, device.clock());
        this.server = server;
        this.handler = handler;
        this.local = (InetSocketAddress) server.getLocalAddress();
        this.worker = worker;
        this.acceptor = Thread.ofPlatform().daemon().name("jwarp-listener-" + local.getPort())
                .unstarted(this::acceptLoop);
    }

    JwarpListener start() {
        if (device.sockets().direct()) {
            int fd = SocketDescriptor.of(server);
            worker.execute(() -> {
                try {
                    listening = ((UringDirectIoDriver) worker.driver()).listen(fd, this::acceptedDirect);
                } catch (IOException | RuntimeException e) {
                    device.report(new IOException("accepting on " + local + " failed", e));
                }
            });
        } else {
            acceptor.start();
        }
        return this;
    }

    /** Engine thread: a connection accepted into one of its rings. */
    private void acceptedDirect(DirectSocket s) {
        try {
            if (closed) {
                s.close();
                return;
            }
            if (optionsInherited) {
                device.sockets().drawIdle(s);
            } else {
                device.sockets().setUp(s);
            }
        } catch (IOException e) {
            try {
                s.close();
            } catch (IOException suppressed) {
                e.addSuppressed(suppressed);
            }
            device.report(new IOException("setting up a connection accepted on " + local + " failed", e));
            return;
        }
        admission.makeRoom();
        Connection c = Connection.accepted(device, s, this, worker, -1, device.clock().nanoTime());
        worker.addConnection(c);
    }

    public CmEventHandler handler() {
        return handler;
    }

    private void acceptLoop() {
        while (!closed) {
            SocketChannel ch = accept();
            if (ch == null) {
                if (closed) {
                    return;
                }
                continue;
            }
            // silent clients give way to this one: the oldest beyond the bound, or under pressure the timed out
            admission.makeRoom();
            // RSS: the engine thread the connection's hash names owns it from its first byte
            RssSteering.Choice choice = device.steer(remote(ch), local(ch));
            EngineWorker owner = choice.worker();
            owner.execute(() -> {
                Connection c;
                try {
                    c = Connection.accepted(device, new ChannelSocket(ch), this, owner, choice.entry(),
                            device.clock().nanoTime());
                } catch (RuntimeException | OutOfMemoryError e) {
                    closeQuietly(ch);      // the socket goes with the connection that could not be made
                    throw e;
                }
                owner.addConnection(c);
            });
        }
    }

    /**
     * The next client's socket, set up (non-blocking, no delay, the peer timeout: the listener's,
     * where it inherits them, but for its own keepalive idle time); null if none came.
     */
    private SocketChannel accept() {
        SocketChannel ch = null;
        try {
            ch = server.accept();
            ch.configureBlocking(false);
            if (optionsInherited) {
                device.sockets().drawIdle(ch);
            } else {
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                device.sockets().boundPeerSilence(ch);
            }
            return ch;
        } catch (ClosedChannelException e) {
            return null;     // the listener closed while waiting (the normal way out), or the client left at once
        } catch (IOException e) {
            if (ch != null) {
                closeQuietly(ch);
            }
            if (!closed) {
                device.report(new IOException("accepting on " + local + " failed", e));
            }
            return null;
        }
    }

    SetupAdmission<ResponderSetup> admission() {
        return admission;
    }

    /** Engine thread: a silent client was dropped to make room (counted, not printed: a flood would flood stderr). */
    void droppedOne() {
        dropped.incrementAndGet();
        device.setupRefused();
    }

    private static InetSocketAddress remote(SocketChannel ch) {
        try {
            return (InetSocketAddress) ch.getRemoteAddress();
        } catch (IOException e) {
            return null;           // gone already: any engine thread will see it fail
        }
    }

    private static InetSocketAddress local(SocketChannel ch) {
        try {
            return (InetSocketAddress) ch.getLocalAddress();
        } catch (IOException e) {
            return null;
        }
    }

    private void closeQuietly(SocketChannel ch) {
        try {
            ch.close();
        } catch (IOException e) {
            device.report(new IOException("closing " + ch + " failed", e));
        }
    }

    /** Silent clients dropped to make room for others (the oldest beyond a bound, or timed out under pressure). */
    public long dropped() {
        return dropped.get();
    }

    boolean isClosed() {
        return closed;
    }

    @Override
    public InetSocketAddress localAddress() {
        return local;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (device.sockets().direct()) {
            // the rings hold the listening socket until its accepts are cancelled (engine thread);
            // the descriptor closes now
            worker.execute(() -> {
                if (listening != null) {
                    try {
                        ((UringDirectIoDriver) worker.driver()).unlisten(listening);
                    } catch (IOException e) {
                        device.report(new IOException("closing listener " + local + " failed", e));
                    }
                }
            });
        }
        try {
            server.close();
        } catch (IOException e) {
            device.report(new IOException("closing listener " + local + " failed", e));
        }
    }

    @Override
    public String toString() {
        return "Listener[" + local + "]";
    }
}
