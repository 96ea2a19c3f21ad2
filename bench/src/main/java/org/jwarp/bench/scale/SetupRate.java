package org.jwarp.bench.scale;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jwarp.bench.perf.PerfException;
import org.jwarp.bench.perf.SideReport;
import org.jwarp.engine.provider.JwarpConfig;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.DeviceLimits;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;

/**
 * Connections established per second, the client side of {@code jwarp bench}'s setup lines,
 * against a {@link SetupServer} process. A jwarp connection counts once it is in RTS on both
 * sides: the client's Established (MPA Request and Reply exchanged, the RTR sent) for each, and
 * the server's count of its own Established (the RTR arrived) before the clock stops. The sockets
 * baseline counts a TCP connect plus one request and one reply of the same private-data size.
 * Each is run serially (the next started when one is done) or with {@code window} in flight; the
 * connections are closed after the clock stops, and a run returns once the server closed its QPs.
 */
public final class SetupRate implements AutoCloseable {

    static final Duration WAIT = Duration.ofSeconds(60);

    private final ScaleLink link;
    private final int privateData;
    private final RdmaDevice device;
    private final ProtectionDomain pd;
    private final CompletionQueue cq;
    private final CmEventQueue events = new CmEventQueue();
    private final InetSocketAddress jwarp;
    private final InetSocketAddress tcp;
    private long serverEstablished;

    /** One measurement: connections per second, and this process's CPU time per connection. */
    public record Rate(double perSecond, double cpuMicrosPerConnection) {
    }

    /** Connects to the server process's control port and opens this side's device. */
    public SetupRate(InetSocketAddress control, JwarpConfig.SocketIo io, int privateData, int maxQps)
            throws IOException {
        this.link = new ScaleLink(new Socket(control.getAddress(), control.getPort()));
        this.privateData = privateData;
        List<Integer> ports = link.ask(ScaleMessage.of("setup", 0), WAIT).ports();
        this.jwarp = new InetSocketAddress("127.0.0.2", ports.get(0));
        this.tcp = new InetSocketAddress("127.0.0.3", ports.get(1));
        device = RdmaDevice.open(DeviceConfig.builder().provider(JwarpConfig.builder()
                .socketIo(io).build()).limits(DeviceLimits.DEFAULT
                .withMaxQps(Math.max(DeviceLimits.DEFAULT.maxQps(), maxQps))).build());
        pd = device.allocPd();
        cq = device.createCq(1024, null);
    }

    /** {@code n} jwarp connections, at most {@code window} setting up at once (1: serially). */
    public Rate jwarp(int n, int window) throws InterruptedException {
        QueuePair[] qps = new QueuePair[n];
        byte[] pdata = new byte[privateData];
        EngineCpu.Reading c0 = EngineCpu.read();
        long t0 = System.nanoTime();
        int next = 0;
        int done = 0;
        while (done < n) {
            while (next < n && next - done < window) {
                qps[next] = device.createQp(pd, QpInitAttr.builder(cq, cq).build());
                device.connectionManager().connect(jwarp, qps[next], ConnectParams.of(pdata), events);
                next++;
            }
            CmEvent e = events.poll(WAIT, device);
            if (!(e instanceof CmEvent.Established)) {
                throw new PerfException("jwarp connection " + done + " of " + n + ": " + (e == null
                        ? "no event in " + WAIT.toSeconds() + " s" : e));
            }
            done++;
        }
        serverEstablished += n;
        link.ask(ScaleMessage.of("established", serverEstablished), WAIT);
        Rate r = rate(n, t0, c0);
        for (QueuePair qp : qps) {
            device.connectionManager().disconnect(qp);
        }
        for (int closed = 0; closed < n; ) {
            CmEvent e = events.poll(WAIT, device);
            if (e instanceof CmEvent.Disconnected d) {
                d.qp().close();
                closed++;
            } else {
                throw new PerfException("closing jwarp connections: " + (e == null ? "no event" : e));
            }
        }
        // the server's side of the close is done before the next run, which it would slow otherwise
        link.ask(ScaleMessage.of("closed", serverEstablished), WAIT);
        return r;
    }

    /** {@code n} TCP connections, each with one request and reply, at most {@code window} at once. */
    public Rate sockets(int n, int window) throws IOException {
        List<SocketChannel> open = new ArrayList<>(n);
        ByteBuffer request = ByteBuffer.allocateDirect(privateData);
        EngineCpu.Reading c0 = EngineCpu.read();
        long t0 = System.nanoTime();
        try (Selector selector = Selector.open()) {
            int next = 0;
            int[] done = {0};
            long deadline = System.nanoTime() + WAIT.toNanos();
            while (done[0] < n) {
                while (next < n && next - done[0] < window) {
                    SocketChannel ch = SocketChannel.open();
                    open.add(ch);
                    ch.configureBlocking(false);
                    ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                    ch.register(selector, ch.connect(tcp) ? SelectionKey.OP_WRITE : SelectionKey.OP_CONNECT,
                            ByteBuffer.allocate(privateData));
                    next++;
                }
                selector.select(key -> {
                    try {
                        SocketChannel ch = (SocketChannel) key.channel();
                        ByteBuffer reply = (ByteBuffer) key.attachment();
                        if (key.isConnectable() && ch.finishConnect()) {
                            key.interestOps(SelectionKey.OP_WRITE);
                        } else if (key.isWritable()) {
                            ch.write(request.clear());
                            key.interestOps(SelectionKey.OP_READ);
                        } else if (key.isReadable()) {
                            if (ch.read(reply) < 0) {
                                throw new IOException("the server closed a connection before its reply");
                            }
                            if (!reply.hasRemaining()) {
                                key.cancel();
                                done[0]++;
                            }
                        }
                    } catch (IOException e) {
                        throw new PerfException("sockets connection: " + e.getMessage());
                    }
                }, 1000);
                if (System.nanoTime() - deadline > 0) {
                    throw new PerfException(done[0] + " of " + n + " sockets connections in " + WAIT.toSeconds() + " s");
                }
            }
        }
        Rate r = rate(n, t0, c0);
        for (SocketChannel ch : open) {
            ch.close();
        }
        return r;
    }

    /** {@return the milliseconds the server process's JIT compilers have spent so far ({@link SideReport#compiledMillis()})} */
    public long serverCompiledMillis() {
        return link.ask(ScaleMessage.of("compiled", 0), WAIT).n();
    }


    private static Rate rate(int n, long t0, EngineCpu.Reading c0) {
        double seconds = (System.nanoTime() - t0) / 1e9;
        EngineCpu.Reading c1 = EngineCpu.read();
        return new Rate(n / seconds, (c1.processNanos() - c0.processNanos()) / 1e3 / n);
    }

    @Override
    public void close() throws IOException {
        try {
            link.send(ScaleMessage.of("bye", 0));
            link.close();
        } finally {
            device.close();
        }
    }
}
