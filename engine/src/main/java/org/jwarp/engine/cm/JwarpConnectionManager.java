package org.jwarp.engine.cm;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import org.jwarp.engine.datapath.Connection;
import org.jwarp.engine.io.BoundAddress;
import org.jwarp.engine.io.ChannelSocket;
import org.jwarp.engine.io.DirectSocket;
import org.jwarp.engine.provider.JwarpDevice;
import org.jwarp.engine.provider.JwarpQp;
import org.jwarp.engine.rss.RssSteering;
import org.jwarp.engine.runtime.EngineWorker;
import org.jwarp.verbs.CmEventHandler;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.ConnectionManager;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.PrivateData;
import org.jwarp.verbs.QpState;
import org.jwarp.verbs.QueuePair;

/**
 * rdma_cm-style connection management over TCP: the TCP port on the wire is the RDMA port (siw
 * works the same way, without a port mapper). Setup mistakes (a port in use, a bad QP) throw at
 * the call; everything after TCP is reported as events on the engine thread.
 */
public final class JwarpConnectionManager implements ConnectionManager {

    private final JwarpDevice device;

    public JwarpConnectionManager(JwarpDevice device) {
        this.device = device;
    }

    @Override
    public Listener listen(InetSocketAddress address, int backlog, CmEventHandler handler) {
        if (handler == null) {
            throw new IllegalArgumentException("a listener needs an event handler");
        }
        device.checkUsable();
        ServerSocketChannel server = null;
        try {
            server = ServerSocketChannel.open();
            server.setOption(StandardSocketOptions.SO_REUSEADDR, true);
            // the kernel's accept queue only feeds the acceptor thread; the application's backlog counts
            // requests awaiting its decision (SetupAdmission), so a burst of connects must not wait on SYN retries
            server.bind(address, Math.max(backlog, SetupAdmission.KERNEL_ACCEPT_QUEUE));
            boolean inherited = device.sockets().givenToAccepted(server);
            EngineWorker w = device.listenerWorker();
            JwarpListener l = new JwarpListener(device, server, inherited, backlog, handler, w);
            return l.start();
        } catch (IOException e) {
            if (server != null) {
                try {
                    server.close();
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw new UncheckedIOException("cannot listen on " + address + ": " + e.getMessage(), e);
        }
    }

    @Override
    public void connect(InetSocketAddress remote, QueuePair qp, ConnectParams params, CmEventHandler handler) {
        if (!(qp instanceof JwarpQp jqp) || qp.device() != device) {
            throw new IllegalArgumentException("the QP does not belong to this device");
        }
        if (handler == null) {
            throw new IllegalArgumentException("connect needs an event handler");
        }
        device.checkUsable();
        if (qp.state() != QpState.INIT) {
            throw new IllegalStateException("a QP connects from INIT, not " + qp.state());
        }
        PrivateData.checkLength(params.privateDataLength(), device.config().mpaRevision());
        if (!jqp.bind()) {
            throw new IllegalStateException("the QP is already connecting or connected; a QP carries one connection");
        }
        if (device.sockets().direct()) {
            connectDirect(remote, jqp, params, handler);
            return;
        }
        SocketChannel ch = null;
        try {
            ch = SocketChannel.open();
            ch.configureBlocking(false);
            ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
            device.sockets().boundPeerSilence(ch);
            // RSS: the 4-tuple is known before any byte of MPA, so the engine thread its hash names
            // owns the QP and the connection from the start. The kernel binds the source address
            // (its route's) and a port as it sends the SYN, quicker than a bind before the connect,
            // which searches the ephemeral ports for one unused by any socket of that address.
            InetSocketAddress local = BoundAddress.available() ? null : RouteSource.bind(ch, remote);
            ch.connect(remote);
            if (local == null) {
                local = BoundAddress.of(ch);
            }
            RssSteering.Choice owner = device.steer(remote, local);
            jqp.adopt(owner.worker(), owner.entry());
        } catch (IOException e) {
            jqp.unbind();
            closeQuietly(ch, e);
            throw new UncheckedIOException("cannot connect to " + remote + ": " + e.getMessage(), e);
        } catch (RuntimeException e) {
            jqp.unbind();                      // an unresolved or unsupported address: the QP may connect again
            closeQuietly(ch, e);
            throw e;
        }
        long deadline = device.clock().nanoTime() + params.timeout().toNanos();
        Connection c = Connection.connecting(device, new ChannelSocket(ch), remote, jqp, params.privateData(),
                params.ord(), params.ird(), deadline, handler);
        EngineWorker w = jqp.worker();
        w.execute(() -> {
            jqp.connection(c);
            w.addConnection(c);
        });
    }

    /**
     * The connect of a direct socket ({@link DirectSocket}): made on the engine thread that will
     * own it, in that thread's rings. Its 4-tuple is not known before the kernel binds it, so the
     * thread is chosen without it (round robin among the engine threads).
     */
    private void connectDirect(InetSocketAddress remote, JwarpQp jqp, ConnectParams params, CmEventHandler handler) {
        if (remote.isUnresolved()) {
            jqp.unbind();
            throw new UncheckedIOException("cannot connect to " + remote + ": unresolved address",
                    new IOException("unresolved address"));
        }
        RssSteering.Choice owner = device.steer(remote, null);
        jqp.adopt(owner.worker(), owner.entry());
        DirectSocket s = new DirectSocket();
        long deadline = device.clock().nanoTime() + params.timeout().toNanos();
        Connection c = Connection.connecting(device, s, remote, jqp, params.privateData(), params.ord(), params.ird(),
                deadline, handler);
        EngineWorker w = jqp.worker();
        w.execute(() -> {
            s.connect(w.driver(), remote, device.sockets()::setUp);
            jqp.connection(c);
            w.addConnection(c);
        });
    }

    private static void closeQuietly(SocketChannel ch, Exception cause) {
        if (ch != null) {
            try {
                ch.close();
            } catch (IOException e) {
                cause.addSuppressed(e);
            }
        }
    }

    @Override
    public void disconnect(QueuePair qp) {
        if (!(qp instanceof JwarpQp jqp) || qp.device() != device) {
            throw new IllegalArgumentException("the QP does not belong to this device");
        }
        jqp.onOwner(() -> {
            if (jqp.connection() != null) {
                jqp.connection().disconnect();
            }
        });
    }
}
