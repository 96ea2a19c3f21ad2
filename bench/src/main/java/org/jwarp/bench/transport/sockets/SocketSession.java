package org.jwarp.bench.transport.sockets;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jwarp.bench.perf.Control;
import org.jwarp.bench.perf.CpuMeter;
import org.jwarp.bench.perf.PendingServer;
import org.jwarp.bench.perf.PerfException;
import org.jwarp.bench.perf.Session;
import org.jwarp.bench.perf.Settings;
import org.jwarp.bench.perf.SideReport;
import org.jwarp.bench.perf.TestKind;
import org.jwarp.bench.perf.TransportKind;
import org.jwarp.bench.transport.jwarp.Rendezvous;

/**
 * A test over plain TCP sockets, the way the seed papers ran their sockets baselines: the
 * ping-pong tests become a ping-pong of {@code size}-byte messages, the bandwidth tests a one-way
 * stream, and READ becomes request/response (an 8-byte request answered by {@code size} bytes).
 * One connection per {@code -q}; the control messages travel on the first one between sizes.
 */
public final class SocketSession implements Session {

    private final Settings settings;
    private final SocketIo[] conns;
    private final SocketControl control;
    private final String connection;
    private final SocketWorkloads work;

    private SocketSession(Settings settings, SocketIo[] conns, String connection) {
        this.settings = settings;
        this.conns = conns;
        this.control = new SocketControl(conns[0]);
        this.connection = connection;
        this.work = new SocketWorkloads(settings, conns);
    }

    /**
     * Client: connects {@code -q} connections and says hello on each.
     *
     * @throws PerfException with one line if the server is unreachable, refuses, or speaks something else
     */
    public static SocketSession connect(Settings settings, InetSocketAddress server, boolean yieldWhenIdle) {
        String where = server.getHostString() + ":" + server.getPort();
        SocketIo[] conns = new SocketIo[settings.qps()];
        String local = "";
        try {
            for (int i = 0; i < conns.length; i++) {
                SocketChannel ch = SocketSetup.connect(server, Duration.ofMillis(SocketHello.TIMEOUT_MILLIS),
                        "a jwarp server at ", " (start the same test there first, without a host, on the same -p)");
                Socket s = ch.socket();
                local = s.getLocalAddress().getHostAddress() + ":" + s.getLocalPort();
                String refusal = SocketHello.clientHello(s, i, settings, where);
                if (refusal != null) {
                    ch.close();
                    throw new PerfException(Rendezvous.mismatch(refusal, where, settings));
                }
                conns[i] = new SocketIo(ch, settings.transport(), yieldWhenIdle);
            }
        } catch (IOException e) {
            closeAll(conns);
            throw new PerfException("cannot reach a jwarp server at " + where + ": " + e.getMessage());
        } catch (RuntimeException e) {
            closeAll(conns);
            throw e;
        }
        return new SocketSession(settings, conns, local + " -> " + where);
    }

    private static String describe(Settings s) {
        return s.test().command() + " --transport " + s.transport().option();
    }

    private static void closeAll(SocketIo[] conns) {
        for (SocketIo c : conns) {
            if (c != null) {
                c.close();
            }
        }
    }

    /**
     * Server: listens on {@code bind}.
     *
     * @throws PerfException with one line if the port is in use
     */
    public static PendingServer listen(TransportKind transport, TestKind test, InetSocketAddress bind,
                                       boolean yieldWhenIdle) {
        return new SocketServer(SocketSetup.listen(bind, 16), transport, test, yieldWhenIdle);
    }

    private static final class SocketServer implements PendingServer {
        private final ServerSocketChannel ssc;
        private final TransportKind transport;
        private final TestKind test;
        private final boolean yieldWhenIdle;

        SocketServer(ServerSocketChannel ssc, TransportKind transport, TestKind test, boolean yieldWhenIdle) {
            this.ssc = ssc;
            this.transport = transport;
            this.test = test;
            this.yieldWhenIdle = yieldWhenIdle;
        }

        @Override
        public InetSocketAddress localAddress() {
            return new InetSocketAddress(ssc.socket().getInetAddress(), SocketSetup.port(ssc));
        }

        @Override
        public Session accept(Duration timeout) {
            List<Socket> open = new ArrayList<>();
            try {
                Socket first = SocketSetup.accept(ssc, timeout).socket();
                open.add(first);
                String who = first.getInetAddress().getHostAddress() + ":" + first.getPort();
                SocketHello.Greeting g = SocketHello.serverHello(first, who, test.command(), transport.option());
                Settings s = g.settings();
                if (s.test() != test || s.transport() != transport) {
                    SocketHello.answer(first, Rendezvous.SERVER_RUNS + test.command() + " --transport "
                            + transport.option());
                    throw new PerfException("the client at " + who + " runs " + describe(s) + ", this server runs "
                            + test.command() + " --transport " + transport.option() + ": run the same test, with the"
                            + " same --transport, on both sides");
                }
                if (g.index() != 0) {
                    SocketHello.answer(first, "the first connection must be number 0");
                    throw new PerfException("the client at " + who + " opened connection " + g.index() + " first");
                }
                SocketHello.answer(first, null);
                SocketIo[] conns = new SocketIo[s.qps()];
                conns[0] = new SocketIo(first.getChannel(), transport, yieldWhenIdle);
                for (int i = 1; i < conns.length; i++) {
                    Socket next = SocketSetup.accept(ssc, Duration.ofMillis(SocketHello.TIMEOUT_MILLIS)).socket();
                    open.add(next);
                    SocketHello.Greeting gi = SocketHello.serverHello(next, who, test.command(), transport.option());
                    if (gi.index() != i) {
                        SocketHello.answer(next, "expected connection " + i);
                        throw new PerfException("the client at " + who + " opened connection " + gi.index()
                                + " where " + i + " was expected");
                    }
                    SocketHello.answer(next, null);
                    conns[i] = new SocketIo(next.getChannel(), transport, yieldWhenIdle);
                }
                String conn = who + " -> " + first.getLocalAddress().getHostAddress() + ":" + first.getLocalPort();
                open.clear();
                return new SocketSession(s, conns, conn);
            } catch (IOException e) {
                throw new PerfException("accepting a client failed: " + e.getMessage());
            } finally {
                for (Socket s : open) {
                    try {
                        s.close();
                    } catch (IOException ignored) {
                        // already failing: the first error is the one reported
                    }
                }
                close();
            }
        }

        @Override
        public void close() {
            try {
                ssc.close();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
    }

    // ---- the session ------------------------------------------------------------------------

    @Override
    public Settings settings() {
        return settings;
    }

    @Override
    public Control control() {
        return control;
    }

    @Override
    public List<Thread> engineThreads() {
        return List.of();
    }

    @Override
    public List<String> describe() {
        return List.of("Connection      : " + connection + " (" + conns.length + " TCP connection"
                        + (conns.length == 1 ? "" : "s") + ", TCP_NODELAY)",
                "Workload        : " + settings.test().socketsWorkload() + " (" + settings.transport().description() + ")");
    }

    @Override
    public void prepare(int size) {
        work.prepare(size);
    }

    @Override
    public SideReport runClient(int size, long iterations, long durationNanos, CpuMeter meter) {
        return work.client(size, iterations, durationNanos, meter);
    }

    @Override
    public void warmingUp(boolean on) {
        for (SocketIo c : conns) {
            c.warmingUp = on;
        }
    }

    @Override
    public boolean serverActive() {
        return true;
    }

    @Override
    public void runServer(int size) {
        work.server(size);
    }

    @Override
    public SideReport serverReport(int size, CpuMeter meter, SideReport clientReport) {
        return work.serverReport(size, meter);
    }

    @Override
    public void close() {
        closeAll(conns);
    }
}
