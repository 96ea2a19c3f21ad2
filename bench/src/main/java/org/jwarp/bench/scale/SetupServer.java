package org.jwarp.bench.scale;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.IntConsumer;
import org.jwarp.bench.perf.PerfException;
import org.jwarp.bench.perf.SideReport;
import org.jwarp.engine.provider.JwarpConfig;
import org.jwarp.verbs.AcceptParams;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.DeviceLimits;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;

/**
 * The server process of {@code jwarp bench}'s connection setup lines: a jwarp listener that
 * accepts every request with a QP of its own and a Reply carrying as many bytes of private data
 * as the Request did, and a TCP listener (the sockets baseline) that answers each connection's
 * request with a reply of the same size, one NIO selector thread for all. Both close what the
 * client closes. On the control connection ({@link ScaleMessage}): "setup" gives the two ports,
 * "established N" waits until N jwarp connections have reached RTS here, "closed N" until N of
 * their QPs were closed here, "compiled" answers this process's JIT compilation time so far
 * ({@link SideReport#compiledMillis()}), "bye" ends it.
 */
public final class SetupServer {

    private final int privateData;
    private final CmEventQueue events = new CmEventQueue();
    private final AtomicInteger established = new AtomicInteger();
    private final AtomicInteger closed = new AtomicInteger();
    private final AtomicReference<String> failure = new AtomicReference<>();
    private volatile boolean running = true;
    private RdmaDevice device;
    private ProtectionDomain pd;
    private CompletionQueue cq;

    private SetupServer(int privateData) {
        this.privateData = privateData;
    }

    /** Serves one client (its control connection on 127.0.0.1, announced through {@code waiting}). */
    public static void serve(JwarpConfig.SocketIo io, int privateData, int maxQps, IntConsumer waiting)
            throws IOException {
        try (ServerSocket control = new ServerSocket()) {
            control.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            waiting.accept(control.getLocalPort());
            try (ScaleLink link = new ScaleLink(control.accept())) {
                new SetupServer(privateData).run(link, io, maxQps);
            }
        }
    }

    private void run(ScaleLink link, JwarpConfig.SocketIo io, int maxQps) throws IOException {
        device = RdmaDevice.open(DeviceConfig.builder().provider(JwarpConfig.builder()
                .socketIo(io).build()).limits(DeviceLimits.DEFAULT
                .withMaxQps(Math.max(DeviceLimits.DEFAULT.maxQps(), maxQps))).build());
        pd = device.allocPd();
        cq = device.createCq(1024, null);
        InetSocketAddress where = new InetSocketAddress("127.0.0.2", 0);
        try (Listener listener = device.connectionManager().listen(where, ScaleServer.BACKLOG, events);
             ServerSocketChannel tcp = ServerSocketChannel.open(); Selector selector = Selector.open()) {
            tcp.bind(new InetSocketAddress("127.0.0.3", 0), ScaleServer.BACKLOG);
            tcp.configureBlocking(false);
            tcp.register(selector, SelectionKey.OP_ACCEPT);
            Thread cm = Thread.ofPlatform().name("jwarp-setup-events").start(this::takeEvents);
            Thread sockets = Thread.ofPlatform().name("jwarp-setup-sockets").start(() -> answerSockets(selector));
            try {
                while (true) {
                    ScaleMessage m = link.receive(ScaleServer.OP_WAIT);
                    switch (m.op()) {
                        case "bye" -> {
                            return;
                        }
                        case "setup" -> link.send(ScaleMessage.ports(List.of(listener.localAddress().getPort(),
                                ((InetSocketAddress) tcp.getLocalAddress()).getPort())));
                        case "established" -> {
                            long deadline = System.nanoTime() + ScaleServer.OP_WAIT.toNanos();
                            while (established.get() < m.n() && failure.get() == null
                                    && System.nanoTime() - deadline < 0) {
                                Thread.onSpinWait();
                            }
                            if (failure.get() != null) {
                                throw new PerfException(failure.get());
                            }
                            link.send(ScaleMessage.of("established", established.get()));
                        }
                        case "closed" -> {
                            // between runs: the next one starts once this side has let go of the last one's QPs
                            long deadline = System.nanoTime() + ScaleServer.OP_WAIT.toNanos();
                            while (closed.get() < m.n() && failure.get() == null && System.nanoTime() - deadline < 0) {
                                java.util.concurrent.locks.LockSupport.parkNanos(100_000);
                            }
                            if (failure.get() != null) {
                                throw new PerfException(failure.get());
                            }
                            link.send(ScaleMessage.of("closed", closed.get()));
                        }
                        case "compiled" -> link.send(ScaleMessage.of("compiled", SideReport.compiledMillis()));
                        default -> throw new PerfException("unknown setup op '" + m.op() + "'");
                    }
                }
            } catch (RuntimeException e) {
                link.send(ScaleMessage.failed(e.getMessage()));
                throw e;
            } finally {
                running = false;
                selector.wakeup();
                join(cm);
                join(sockets);
            }
        } finally {
            device.close();
        }
    }

    /** Accepts every request with a QP, a Reply of the Request's private-data size; closes what ends. */
    private void takeEvents() {
        try {
            while (running) {
                CmEvent e = events.poll(Duration.ofMillis(100), device);
                switch (e) {
                    case null -> { }
                    case CmEvent.ConnectRequest r -> {
                        QueuePair qp = device.createQp(pd, QpInitAttr.builder(cq, cq).build());
                        r.request().accept(qp, AcceptParams.of(new byte[r.request().privateData().length]));
                    }
                    case CmEvent.Established est -> established.incrementAndGet();
                    case CmEvent.Disconnected d -> {
                        d.qp().close();
                        closed.incrementAndGet();
                    }
                    default -> {
                        // a setup that failed here (the client gave up on it) is the client's to report
                    }
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            failure.compareAndSet(null, String.valueOf(e.getMessage()));
        }
    }

    /** The sockets baseline: read a request of {@code privateData} bytes, write as many back, close on EOF. */
    private void answerSockets(Selector selector) {
        ByteBuffer reply = ByteBuffer.allocateDirect(Math.max(1, privateData));
        ByteBuffer after = ByteBuffer.allocateDirect(64);
        try {
            while (running) {
                selector.select(key -> {
                    try {
                        if (key.isAcceptable()) {
                            SocketChannel ch = ((ServerSocketChannel) key.channel()).accept();
                            if (ch != null) {
                                ch.configureBlocking(false);
                                ch.setOption(java.net.StandardSocketOptions.TCP_NODELAY, true);
                                ch.register(selector, SelectionKey.OP_READ, ByteBuffer.allocate(privateData));
                            }
                            return;
                        }
                        SocketChannel ch = (SocketChannel) key.channel();
                        ByteBuffer in = (ByteBuffer) key.attachment();
                        boolean answered = !in.hasRemaining();
                        int n = ch.read(answered ? after.clear() : in);
                        if (n < 0) {
                            key.cancel();
                            ch.close();
                        } else if (!answered && !in.hasRemaining()) {
                            reply.clear().limit(privateData);
                            ch.write(reply);                 // what follows is the client's close
                        }
                    } catch (IOException e) {
                        key.cancel();
                        try {
                            key.channel().close();
                        } catch (IOException ignored) {
                            // already closed
                        }
                    }
                }, 100);
            }
        } catch (IOException e) {
            failure.compareAndSet(null, "the sockets listener failed: " + e.getMessage());
        }
    }

    private static void join(Thread t) {
        try {
            t.join(10_000);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
