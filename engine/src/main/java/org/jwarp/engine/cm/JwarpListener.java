package org.jwarp.engine.cm;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import org.jwarp.engine.datapath.Connection;
import org.jwarp.engine.io.ChannelSocket;
import org.jwarp.engine.io.DirectSocket;
import org.jwarp.engine.io.IoDriver;
import org.jwarp.engine.io.IoRegistration;
import org.jwarp.engine.io.SocketDescriptor;
import org.jwarp.engine.io.UringDirectIoDriver;
import org.jwarp.engine.provider.JwarpDevice;
import org.jwarp.engine.rss.RssSteering;
import org.jwarp.engine.runtime.EngineWorker;
import org.jwarp.verbs.CmEventHandler;
import org.jwarp.verbs.Listener;

/**
 * A listening endpoint. Its engine thread accepts, on the listening socket's readiness: the
 * socket sits in the thread's {@link IoDriver} with {@link IoDriver#OP_ACCEPT}, a sleep it ends
 * or a poll that finds it ready says so ({@link IoDriver#takeAcceptReady}), and the next duty cycle
 * accepts what the kernel holds ({@link #acceptWork}). No thread of its own wakes and hands each
 * connection over; a cycle in which nobody connected makes no call and allocates nothing (a
 * non-blocking accept allocates, so it is made only on readiness). The engine thread the
 * connection's RSS hash names owns it from its first byte and runs its MPA setup. What a
 * connection may hold while it is set up, and when a silent one gives way, is
 * {@link SetupAdmission}'s rule: only requests awaiting the application's decision count against
 * its backlog.
 *
 * <p>With direct sockets ({@code uring-direct}) the rings of the listener's engine thread accept
 * ({@link UringDirectIoDriver#listen}), each connection straight into a ring's file table, and that
 * engine thread owns the connection.
 */
public final class JwarpListener implements Listener {

    private final JwarpDevice device;
    private final ServerSocketChannel server;
    private final CmEventHandler handler;
    private final InetSocketAddress local;
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
    /** Other layers: the listening socket in the engine thread's driver (engine thread). */
    private IoRegistration registration;
    /** After a failed accept (out of descriptors, say), when accepting resumes; 0 while it runs (engine thread). */
    private long pausedUntil;

    JwarpListener(JwarpDevice device, ServerSocketChannel server, boolean optionsInherited, int backlog,
                  CmEventHandler handler, EngineWorker worker) throws IOException {
        this.device = device;
        this.optionsInherited = optionsInherited;
        this.admission = SetupAdmission.withDefaults(backlog, device.clock());
        this.server = server;
        this.handler = handler;
        this.local = (InetSocketAddress) server.getLocalAddress();
        this.worker = worker;
    }

    /** Accepting begins on the listener's engine thread, which closes it with the device. */
    JwarpListener start() throws IOException {
        boolean direct = device.sockets().direct();
        int fd = direct ? SocketDescriptor.of(server) : -1;
        if (!direct) {
            server.configureBlocking(false);
        }
        worker.execute(() -> {
            worker.addListener(this);
            if (closed) {
                return;
            }
            try {
                if (direct) {
                    listening = ((UringDirectIoDriver) worker.driver()).listen(fd, this::acceptedDirect);
                } else {
                    registration = worker.driver().register(server, IoDriver.OP_ACCEPT, this);
                }
            } catch (IOException | RuntimeException e) {
                device.report(new IOException("accepting on " + local + " failed", e));
            }
        });
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

    /**
     * Engine thread, each duty cycle of a thread with listeners: once {@code ready} (a listener of
     * this thread was found ready), accepts what the kernel holds, at most
     * {@link #ACCEPTS_PER_CYCLE} (a flood of connects leaves the cycle to the connections it
     * carries; readiness stays, and the next cycle goes on). Returns the connections accepted.
     */
    public int acceptWork(boolean ready, long now) {
        if (registration == null || closed) {
            return 0;
        }
        if (pausedUntil != 0) {
            if (now - pausedUntil < 0) {
                return 0;
            }
            pausedUntil = 0;
            interest(IoDriver.OP_ACCEPT);               // what waited meanwhile makes it ready at once
            return 0;
        }
        if (!ready) {
            return 0;
        }
        int accepted = 0;
        while (accepted < ACCEPTS_PER_CYCLE) {
            SocketChannel ch = accept(now);
            if (ch == null) {
                break;
            }
            accepted++;
            // silent clients give way to this one: the oldest beyond the bound, or under pressure the timed out
            admission.makeRoom();
            // RSS: the engine thread the connection's hash names owns it from its first byte
            RssSteering.Choice choice = device.steer(remote(ch), local(ch));
            EngineWorker owner = choice.worker();
            if (owner == worker) {
                adopt(ch, owner, choice.entry(), now);
            } else {
                owner.execute(() -> adopt(ch, owner, choice.entry(), device.clock().nanoTime()));
            }
        }
        return accepted;
    }

    /** Connections one duty cycle accepts at most. */
    static final int ACCEPTS_PER_CYCLE = 64;
    /** How long accepting pauses after an accept failed (the descriptors ran out, say). */
    static final long ACCEPT_PAUSE_NANOS = 10_000_000L;

    /** When this listener's engine thread must run a cycle to resume accepting; {@link Long#MAX_VALUE} if never. */
    public long deadline() {
        return pausedUntil != 0 ? pausedUntil : Long.MAX_VALUE;
    }

    /** {@code owner}'s thread: the accepted socket becomes a connection in MPA setup there. */
    private void adopt(SocketChannel ch, EngineWorker owner, int rssEntry, long now) {
        Connection c;
        try {
            c = Connection.accepted(device, new ChannelSocket(ch), this, owner, rssEntry, now);
        } catch (RuntimeException | OutOfMemoryError e) {
            closeQuietly(ch);      // the socket goes with the connection that could not be made
            throw e;
        }
        owner.addConnection(c);
    }

    /**
     * The next client's socket, set up (non-blocking, no delay, the peer timeout: the listener's,
     * where it inherits them, but for its own keepalive idle time); null if none waits, or if
     * accepting failed (reported; accepting pauses a moment, as a failure such as running out of
     * descriptors stays while the client waits in the kernel's queue).
     */
    private SocketChannel accept(long now) {
        SocketChannel ch = null;
        try {
            ch = server.accept();
            if (ch == null) {
                return null;
            }
            ch.configureBlocking(false);
            if (optionsInherited) {
                device.sockets().drawIdle(ch);
            } else {
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                device.sockets().boundPeerSilence(ch);
            }
            return ch;
        } catch (IOException e) {
            if (ch != null) {
                closeQuietly(ch);                   // this client's socket could not be set up: it alone goes
                device.report(new IOException("setting up a connection accepted on " + local + " failed", e));
                return null;
            }
            if (!closed) {
                device.report(new IOException("accepting on " + local + " failed", e));
                pausedUntil = now + ACCEPT_PAUSE_NANOS;
                if (pausedUntil == 0) {
                    pausedUntil = 1;
                }
                interest(0);
            }
            return null;
        }
    }

    private void interest(int ops) {
        try {
            registration.interestOps(ops);
        } catch (IOException e) {
            device.report(new IOException("accepting on " + local + " failed", e));
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

    /**
     * Stops accepting: the engine thread takes the socket out of its driver before it is closed
     * (a layer watching the descriptor must not watch a number the kernel gives to another
     * socket), so that the port is free once this returns. With direct sockets the rings hold the
     * listening socket until the engine thread cancels their accepts; the descriptor closes now.
     */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        if (device.sockets().direct()) {
            worker.execute(this::stopAccepting);
        } else {
            try {
                device.engines().runOnEngine(worker, this::stopAccepting);
            } catch (IllegalStateException engineGone) {
                // the device closed or its engine failed: no cycle watches the socket any more
            }
        }
        closeChannel();
    }

    /**
     * The engine thread, or the thread that owns it once it stopped (device close): the socket
     * leaves the driver and closes. NIO closes a registered channel's descriptor at its selector's
     * next select: a poll now frees the port at once.
     */
    public void stopAccepting() {
        closed = true;
        if (listening != null) {
            try {
                ((UringDirectIoDriver) worker.driver()).unlisten(listening);
            } catch (IOException e) {
                device.report(new IOException("closing listener " + local + " failed", e));
            }
            listening = null;
        }
        if (registration == null) {
            closeChannel();
        } else {
            registration.cancel();
            registration = null;
            closeChannel();
            try {
                worker.driver().pollNow(IoDriver.ReadyHandler.IGNORE);
            } catch (IOException | RuntimeException e) {
                device.report(new IOException("closing listener " + local + " failed", e));
            }
        }
        worker.removeListener(this);
    }

    private void closeChannel() {
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
