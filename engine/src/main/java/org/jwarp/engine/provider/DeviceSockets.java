package org.jwarp.engine.provider;

import java.io.IOException;
import java.nio.channels.SocketChannel;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jwarp.engine.datapath.Connection;
import org.jwarp.engine.datapath.SocketReceiver;
import org.jwarp.engine.io.NioSocketIo;
import org.jwarp.engine.io.SocketDescriptor;
import org.jwarp.engine.io.SocketIo;
import org.jwarp.engine.io.SyscallSocketIo;
import org.jwarp.engine.io.TcpLiveness;
import org.jwarp.engine.io.Uring;
import org.jwarp.engine.io.UringSocketIo;
import org.jwarp.stack.StagTable;
import org.jwarp.verbs.DeviceConfig;

/**
 * How a device's connections use their kernel sockets: the socket I/O layer chosen at open, the
 * calls a running connection makes through it, and the peer timeout every socket gets before its
 * MPA exchange. What the JVM does not allow (a socket's descriptor hidden) is said once per process.
 */
public final class DeviceSockets {

    /** Whether the one line on sockets' hidden descriptors (NIO, no TCP_USER_TIMEOUT) was printed in this process. */
    private static final AtomicBoolean SAID_DESCRIPTORS_HIDDEN = new AtomicBoolean();

    private final JwarpConfig.SocketIo layer;
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
        this.layer = choose(jwarp.socketIo());
        this.rxDirectFrom = jwarp.rxDirectFrom();
    }

    /** AUTO: system calls where the JVM shows sockets' descriptors, else NIO and one line (once) saying why. */
    private static JwarpConfig.SocketIo choose(JwarpConfig.SocketIo asked) {
        String why = SocketDescriptor.why();
        return switch (asked) {
            case NIO -> JwarpConfig.SocketIo.NIO;
            case SYSCALLS, URING, URING_SQPOLL -> {
                if (why == null && asked != JwarpConfig.SocketIo.SYSCALLS) {
                    why = Uring.why(asked == JwarpConfig.SocketIo.URING_SQPOLL);
                }
                if (why != null) {
                    throw new UnsupportedOperationException("socket I/O layer " + asked.option() + ": " + why);
                }
                yield asked;
            }
            case AUTO -> {
                if (why == null) {
                    yield JwarpConfig.SocketIo.SYSCALLS;
                }
                if (SAID_DESCRIPTORS_HIDDEN.compareAndSet(false, true)) {
                    System.err.println("jwarp: socket I/O through NIO, not system calls, and the peer timeout by keepalive"
                            + " only: " + why);
                }
                yield JwarpConfig.SocketIo.NIO;
            }
        };
    }

    /** The layer's name on the command line. */
    String layerName() {
        return layer.option();
    }

    public long rxDirectFrom() {
        return rxDirectFrom;
    }

    /**
     * A running connection's socket calls, in this device's layer ({@code capacity}: pieces per call;
     * an io_uring layer uses the ring of the engine thread that runs the connection at each call).
     */
    public SocketIo open(Connection c, int capacity) {
        return switch (layer) {
            case SYSCALLS -> new SyscallSocketIo(c.channel(), capacity);
            case URING, URING_SQPOLL -> new UringSocketIo(c.channel(), capacity,
                    () -> c.owner().uring(layer == JwarpConfig.SocketIo.URING_SQPOLL), layer.option());
            case NIO, AUTO -> new NioSocketIo(c.channel(), capacity, stags::deregistrations);
        };
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
        boolean first = SocketDescriptor.why() != null ? SAID_DESCRIPTORS_HIDDEN.compareAndSet(false, true)
                : !livenessWarned;
        livenessWarned = true;
        if (first) {
            System.err.println("jwarp: " + why + "; an idle connection still notices a vanished peer by keepalive");
        }
    }
}
