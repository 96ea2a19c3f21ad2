package org.jwarp.engine.provider;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import org.jwarp.verbs.CmEventHandler;
import org.jwarp.verbs.Listener;

/** A listening endpoint: its engine thread accepts TCP connections and starts MPA setup on each. */
final class JwarpListener implements Listener {

    private final JwarpDevice device;
    private final ServerSocketChannel server;
    private final CmEventHandler handler;
    private final InetSocketAddress local;
    private volatile boolean closed;

    JwarpListener(JwarpDevice device, ServerSocketChannel server, CmEventHandler handler) throws IOException {
        this.device = device;
        this.server = server;
        this.handler = handler;
        this.local = (InetSocketAddress) server.getLocalAddress();
    }

    CmEventHandler handler() {
        return handler;
    }

    /** Engine thread: the next pending TCP connection, or null. */
    SocketChannel acceptOne() throws IOException {
        if (closed) {
            return null;
        }
        return server.accept();
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
