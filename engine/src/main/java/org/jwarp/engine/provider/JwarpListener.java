package org.jwarp.engine.provider;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import org.jwarp.verbs.CmEventHandler;
import org.jwarp.verbs.Listener;

/**
 * A listening endpoint. Accepting runs on a thread of its own, blocked in {@code accept()} (no CPU
 * while nobody connects), rather than in the engine's duty cycle: a non-blocking accept allocates
 * on every call, which the data path must not (DESIGN rule 3). Each accepted connection is handed
 * to the engine thread, which runs MPA setup and delivers the connection events.
 */
final class JwarpListener implements Listener {

    private final JwarpDevice device;
    private final ServerSocketChannel server;
    private final CmEventHandler handler;
    private final InetSocketAddress local;
    private final Thread acceptor;
    private final int backlog;
    /** Clients refused because {@link #backlog} setups were pending; written by the engine thread. */
    private volatile long refused;
    /** Setups handed to engine threads and not yet ended (running, failed or rejected). */
    private final java.util.concurrent.atomic.AtomicInteger pending = new java.util.concurrent.atomic.AtomicInteger();
    private volatile boolean closed;

    JwarpListener(JwarpDevice device, ServerSocketChannel server, int backlog, CmEventHandler handler,
                  EngineWorker worker) throws IOException {
        this.device = device;
        this.backlog = Math.max(1, backlog);
        this.server = server;
        this.handler = handler;
        this.local = (InetSocketAddress) server.getLocalAddress();
        this.acceptor = Thread.ofPlatform().daemon().name("jwarp-listener-" + local.getPort())
                .unstarted(this::acceptLoop);
    }

    JwarpListener start() {
        acceptor.start();
        return this;
    }

    CmEventHandler handler() {
        return handler;
    }

    private void acceptLoop() {
        while (!closed) {
            SocketChannel ch;
            try {
                ch = server.accept();
                ch.configureBlocking(false);
                ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            } catch (ClosedChannelException e) {
                return; // closed while waiting: the normal way out
            } catch (IOException e) {
                if (!closed) {
                    device.report(new IOException("accepting on " + local + " failed", e));
                }
                continue;
            }
            if (pending.incrementAndGet() > backlog) {
                // a flood of silent or slow clients must not hold sockets and buffers without bound
                pending.decrementAndGet();
                refused++;
                device.setupRefused();
                closeQuietly(ch);
                System.err.println("jwarp: listener " + local + ": " + backlog + " connection setups pending (its"
                        + " backlog); refused a client (" + refused + " refused so far)");
                continue;
            }
            // RSS: the engine thread the connection's hash names owns it from its first byte
            RssSteering.Choice choice = device.steer(remote(ch), local(ch));
            EngineWorker owner = choice.worker();
            owner.execute(() -> {
                Connection c;
                try {
                    c = Connection.accepted(device, ch, this, owner, choice.entry(), System.nanoTime());
                } catch (RuntimeException | OutOfMemoryError e) {
                    setupEnded();
                    closeQuietly(ch);      // the socket goes with the connection that could not be made
                    throw e;
                }
                owner.addConnection(c);
            });
        }
    }

    /** A setup of this listener ended: it ran, failed or was rejected (the connection's engine thread). */
    void setupEnded() {
        pending.decrementAndGet();
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

    /** Clients refused because the backlog of pending setups was full. */
    long refused() {
        return refused;
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
