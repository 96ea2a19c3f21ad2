package org.jwarp.engine.provider;

import java.io.IOException;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import org.jwarp.engine.datapath.Connection;
import org.jwarp.engine.datapath.SocketReceiver;
import org.jwarp.engine.io.DirectSocket;
import org.jwarp.engine.io.IoDriver;
import org.jwarp.engine.io.IoDrivers;
import org.jwarp.engine.io.IoLayer;
import org.jwarp.engine.io.ListeningOptions;
import org.jwarp.engine.io.SocketDescriptor;
import org.jwarp.engine.io.SocketIo;
import org.jwarp.engine.io.TcpLiveness;
import org.jwarp.stack.StagTable;
import org.jwarp.verbs.DeviceConfig;

/**
 * How a device's connections use their kernel sockets: the socket I/O layer chosen at open
 * ({@link JwarpConfig.SocketIo#resolve()}), each engine thread's driver in it, the calls a running connection makes
 * through its thread's driver, and the peer timeout every socket gets before its MPA exchange.
 * What the JVM does not allow (a socket's descriptor hidden) is said once per process.
 */
public final class DeviceSockets {

    private final IoLayer layer;
    private final DeviceConfig config;
    private final StagTable stags;
    /** Payload bytes from which a segment is read straight into its target ({@link SocketReceiver}). */
    private final long rxDirectFrom;
    /** Whether the one line on a peer timeout that could not be set in full was printed. */
    private volatile boolean livenessWarned;

    /** @throws UnsupportedOperationException if an explicitly asked layer cannot run here */
    DeviceSockets(DeviceConfig config, JwarpConfig jwarp, StagTable stags) {
        this.config = config;
        this.stags = stags;
        this.layer = jwarp.socketIo().resolve();
        this.rxDirectFrom = jwarp.rxDirectFrom();
    }

    /** The layer's name on the command line. */
    String layerName() {
        return layer.option();
    }

    public long rxDirectFrom() {
        return rxDirectFrom;
    }

    /** Whether connections' sockets are io_uring direct descriptors ({@link IoLayer#URING_DIRECT}). */
    public boolean direct() {
        return layer == IoLayer.URING_DIRECT;
    }

    /** What a direct socket gets before its connect or MPA exchange: no delay, and the peer timeout. */
    public void setUp(DirectSocket s) throws IOException {
        s.setOption(IPPROTO_TCP, TCP_NODELAY, 1);
        TcpLiveness.apply(s, config.peerTimeout());
    }

    private static final int IPPROTO_TCP = 6;
    private static final int TCP_NODELAY = 1;

    /** A new engine thread's I/O driver, in this device's layer. */
    public IoDriver newDriver() {
        return IoDrivers.open(layer, stags::deregistrations);
    }

    /**
     * A running connection's socket calls, through the driver of the engine thread that owns it
     * ({@code capacity}: pieces per call); a connection that moves opens them again on its new thread.
     */
    public SocketIo open(Connection c, int capacity) {
        return c.socket().open(c.owner().driver(), capacity);
    }

    /**
     * Gives {@code server} (a listener's socket) what its accepted sockets need, where they inherit
     * it ({@link ListeningOptions}); false if each accepted socket must get it itself.
     */
    public boolean givenToAccepted(ServerSocketChannel server) {
        return ListeningOptions.inherit(server, config.peerTimeout());
    }

    /** An accepted socket that inherited its options ({@link #givenToAccepted}): its own keepalive idle time. */
    public void drawIdle(SocketChannel ch) throws IOException {
        ListeningOptions.drawIdle(ch, config.peerTimeout());
    }

    /** As {@link #drawIdle(SocketChannel)}, for a direct socket. */
    public void drawIdle(DirectSocket s) throws IOException {
        ListeningOptions.drawIdle(s, config.peerTimeout());
    }

    /**
     * Bounds how long {@code ch}'s peer may vanish without the connection noticing
     * ({@link DeviceConfig#peerTimeout()}); what cannot be set is said once on stderr.
     */
    public void boundPeerSilence(SocketChannel ch) throws IOException {
        String why = TcpLiveness.apply(ch, config.peerTimeout());
        if (why == null) {
            return;
        }
        boolean first = SocketDescriptor.why() != null ? IoDrivers.firstWordOnHiddenDescriptors()
                : !livenessWarned;
        livenessWarned = true;
        if (first) {
            System.err.println("jwarp: " + why + "; an idle connection still notices a vanished peer by keepalive");
        }
    }
}
