package org.jwarp.bench.transport.jwarp;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.jwarp.bench.perf.Control;
import org.jwarp.bench.perf.CpuMeter;
import org.jwarp.bench.perf.Payload;
import org.jwarp.bench.perf.PendingServer;
import org.jwarp.bench.perf.PerfException;
import org.jwarp.bench.perf.Session;
import org.jwarp.bench.perf.Settings;
import org.jwarp.bench.perf.SideReport;
import org.jwarp.bench.perf.TestKind;
import org.jwarp.verbs.AcceptParams;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.ConnectionRequest;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.QpAttr;

/**
 * A test over jwarp verbs: one side's {@link JwarpSide} and the workload of its test. Connection
 * setup uses only the connection manager: the client's first connection (the control QP) carries
 * the settings in its MPA Request; then one connection per data QP carries that QP's buffers
 * (address, STag, length) each way, in the Request and the Reply ({@link Rendezvous}).
 */
public final class JwarpSession implements Session {

    private static final Duration SETUP = Duration.ofSeconds(30);

    private final JwarpSide side;
    private final String connection;
    private JwarpPingPong pingPong;
    private JwarpReadLatency readLatency;
    private JwarpStream stream;
    private JwarpReceiver receiver;

    private JwarpSession(JwarpSide side, boolean client, String connection) {
        this.side = side;
        this.connection = connection;
        TestKind t = side.settings.test();
        TestKind.Verb v = t.verb();
        if (t.isLatency()) {
            if (v.isRequestResponse()) {
                readLatency = new JwarpReadLatency(side);
            } else {
                pingPong = new JwarpPingPong(side, v);
            }
        } else if (client) {
            stream = new JwarpStream(side, v);
        } else if (v == TestKind.Verb.SEND || v == TestKind.Verb.WRITE_IMM) {
            receiver = new JwarpReceiver(side, v);
        }
    }

    // ---- connection setup -------------------------------------------------------------------

    /**
     * Client: opens a device, connects the control QP and the data QPs to {@code server}.
     *
     * @throws PerfException with one line if the server cannot be reached, refuses, or is not a
     *                       jwarp benchmark server
     */
    public static JwarpSession connect(JwarpOptions options, Settings settings, InetSocketAddress server) {
        JwarpSide side = new JwarpSide(options);
        try {
            side.setup(settings);
            side.control.start();
            CmEventQueue events = side.cmEvents;
            String where = CmSetup.where(server);
            CmSetup.Refusal refusal = (e, w) -> refused(e, w, settings);
            CmEvent.Established est = CmSetup.connect(side.device, server, side.ctlQp,
                    new ConnectParams(Rendezvous.control(settings), SETUP, 1, 1), events, SETUP, refusal);
            for (int i = 0; i < settings.qps(); i++) {
                CmEvent.Established e = CmSetup.connect(side.device, server, side.qps[i], new ConnectParams(
                        Rendezvous.data(i, side.buffers(i)), SETUP, Math.min(settings.outstanding(),
                        side.device.config().limits().maxOrd()), ConnectParams.DEFAULT_DEPTH), events, SETUP, refusal);
                Rendezvous.Frame f = parseOurs(e.peerPrivateData(), where);
                if (f.kind() != Rendezvous.OK || f.buffers() == null) {
                    throw new PerfException("the server at " + where + " answered data QP " + i + " without its buffers");
                }
                side.peer[i] = f.buffers();
            }
            String conn = est.attr().localAddress().getHostString() + ":" + est.attr().localAddress().getPort() + " -> "
                    + where;
            return new JwarpSession(side, true, conn);
        } catch (RuntimeException e) {
            side.close();
            throw e;
        }
    }

    /** The one line for a connect that got {@code e}: whether the peer is a jwarp benchmark server, and of which test. */
    private static PerfException refused(CmEvent e, String where, Settings s) {
        return switch (e) {
            case CmEvent.Established est -> throw new IllegalStateException("established is no refusal");
            case CmEvent.Rejected r -> {
                Rendezvous.Frame f = Rendezvous.parse(r.peerPrivateData());
                if (f != null && f.kind() == Rendezvous.ERROR) {
                    yield new PerfException(Rendezvous.mismatch(f.text(), where, s));
                }
                yield new PerfException("the peer at " + where + " rejected the connection (" + r.reason()
                        + "): it is not a jwarp benchmark server");
            }
            case CmEvent.Unreachable u -> new PerfException("cannot reach a jwarp server at " + where + ": "
                    + u.reason() + " (start the same test there first, without a host, on the same -p)");
            case CmEvent.ConnectError ce -> new PerfException(switch (ce.kind()) {
                case PROTOCOL -> "the peer at " + where + " broke off MPA setup (" + ce.reason() + "): it is not a"
                        + " jwarp server with --transport jwarp, or it refused this client (see its output)";
                case TIMEOUT -> "no answer from " + where + " during connection setup (" + ce.reason() + ")";
                case NEGOTIATION, LOCAL -> "connection setup with " + where + " failed: " + ce.reason();
            });
            case CmEvent.Disconnected d -> new PerfException("the server at " + where
                    + " closed the connection during setup (" + d.cause() + ")");
            case CmEvent.ConnectRequest cr -> throw new IllegalStateException("a connect request on the active side");
            case CmEvent.AddressResolved a -> throw new IllegalStateException("an address resolution: no CmId is used");
            case CmEvent.RouteResolved r -> throw new IllegalStateException("a route resolution: no CmId is used");
        };
    }

    private static Rendezvous.Frame parseOurs(byte[] privateData, String where) {
        Rendezvous.Frame f;
        try {
            f = Rendezvous.parse(privateData);
        } catch (IllegalArgumentException e) {
            throw new PerfException("the peer at " + where + " sent setup data this jwarp does not understand: "
                    + e.getMessage());
        }
        if (f == null) {
            throw new PerfException("the peer at " + where + " is not a jwarp benchmark (its MPA private data is not ours)");
        }
        return f;
    }

    /**
     * Server: opens a device and listens on {@code bind}.
     *
     * @throws PerfException with one line if the port is in use
     */
    public static PendingServer listen(JwarpOptions options, TestKind test, InetSocketAddress bind) {
        JwarpSide side = new JwarpSide(options);
        CmEventQueue events = side.cmEvents;
        Listener listener;
        try {
            // every data QP and the control QP may set up at once
            listener = CmSetup.listen(side.device, bind, Settings.MAX_QPS + 1, events);
        } catch (RuntimeException e) {
            side.close();
            throw e;
        }
        return new JwarpServer(side, listener, events, test);
    }

    private static final class JwarpServer implements PendingServer {
        private final JwarpSide side;
        private final Listener listener;
        private final CmEventQueue events;
        private final TestKind test;
        private boolean accepted;

        JwarpServer(JwarpSide side, Listener listener, CmEventQueue events, TestKind test) {
            this.side = side;
            this.listener = listener;
            this.events = events;
            this.test = test;
        }

        @Override
        public InetSocketAddress localAddress() {
            return listener.localAddress();
        }

        @Override
        public Session accept(Duration timeout) {
            try {
                Session s = doAccept(timeout);
                accepted = true;
                return s;
            } finally {
                listener.close();
                if (!accepted) {
                    side.close();
                }
            }
        }

        private Session doAccept(Duration timeout) {
            String here = "this server";
            CmEvent first = CmSetup.await(events, side.device, timeout, "a client");
            if (first instanceof CmEvent.ConnectError ce) {
                // the listener reports a client that got nowhere: one line says who and why
                throw new PerfException(ce.reason() + (ce.kind() == CmEvent.ConnectError.Kind.PROTOCOL
                        ? " (this server runs " + test.command() + " --transport jwarp: run both sides with the same"
                        + " --transport)" : ""));
            }
            if (!(first instanceof CmEvent.ConnectRequest cr)) {
                throw new PerfException("unexpected connection event before any client: " + first);
            }
            ConnectionRequest req = cr.request();
            String who = req.remoteAddress().getHostString() + ":" + req.remoteAddress().getPort();
            Rendezvous.Frame f;
            try {
                f = Rendezvous.parse(req.privateData());
            } catch (IllegalArgumentException e) {
                reject(req, "malformed benchmark settings: " + e.getMessage());
                throw new PerfException("the client at " + who + " sent settings this jwarp does not understand: "
                        + e.getMessage());
            }
            if (f == null || f.kind() != Rendezvous.CONTROL) {
                reject(req, "this is a jwarp " + test.command() + " server: connect with `jwarp " + test.command()
                        + " HOST`");
                throw new PerfException("the client at " + who + " is not a jwarp benchmark client (its MPA private"
                        + " data is not ours)");
            }
            Settings s = f.settings();
            if (s.test() != test) {
                reject(req, Rendezvous.SERVER_RUNS + test.command() + " --transport jwarp");
                throw new PerfException("the client at " + who + " runs " + s.test().command() + " --transport "
                        + s.transport().option() + ", " + here + " runs " + test.command() + " --transport jwarp: run"
                        + " the same test, with the same --transport, on both sides");
            }
            side.setup(s);
            side.control.start();
            req.accept(side.ctlQp, new AcceptParams(Rendezvous.ok(null), 1, 1));
            int established = 0;
            boolean[] seen = new boolean[s.qps()];
            QpAttr attr = null;
            while (established < s.qps() + 1) {
                CmEvent e = CmSetup.await(events, side.device, SETUP, who);
                switch (e) {
                    case CmEvent.ConnectRequest dr -> {
                        ConnectionRequest r = dr.request();
                        Rendezvous.Frame d = parseOurs(r.privateData(), who);
                        if (d.kind() != Rendezvous.DATA || d.qpIndex() < 0 || d.qpIndex() >= s.qps() || seen[d.qpIndex()]) {
                            reject(r, "unexpected connection");
                            throw new PerfException("the client at " + who + " opened an unexpected connection");
                        }
                        int i = d.qpIndex();
                        seen[i] = true;
                        side.peer[i] = d.buffers();
                        r.accept(side.qps[i], new AcceptParams(Rendezvous.ok(side.buffers(i)), ConnectParams.DEFAULT_DEPTH,
                                Math.min(side.device.config().limits().maxIrd(), Math.max(ConnectParams.DEFAULT_DEPTH,
                                        s.outstanding()))));
                    }
                    case CmEvent.Established est -> {
                        established++;
                        if (est.qp() == side.ctlQp) {
                            attr = est.attr();
                        }
                    }
                    default -> throw new PerfException("the client at " + who + " failed during setup: " + e);
                }
            }
            String conn = who + " -> " + attr.localAddress().getHostString() + ":" + attr.localAddress().getPort();
            return new JwarpSession(side, false, conn);
        }

        /**
         * Rejects with a reason and waits until the MPA Reply has left (the engine carries the
         * reject out; this failing server closes its device next, and the client should see the
         * reason, not just a closed connection). In invoker mode this thread runs the engine meanwhile.
         */
        private void reject(ConnectionRequest req, String reason) {
            CompletableFuture<Void> sent = req.reject(Rendezvous.error(reason)).toCompletableFuture();
            try {
                if (side.invoker) {
                    side.device.invokeUntil(sent::isDone, SETUP.toNanos(), TimeUnit.NANOSECONDS);
                } else {
                    sent.get(SETUP.toNanos(), TimeUnit.NANOSECONDS);
                }
            } catch (ExecutionException | TimeoutException e) {
                // the client left or the setup timed out: nothing more to tell it; the caller's line says why
            } catch (InterruptedException ie) {
                Thread.currentThread().interrupt();
            }
        }

        @Override
        public void close() {
            listener.close();
            if (!accepted) {
                side.close();
            }
        }
    }

    // ---- the session ------------------------------------------------------------------------

    @Override
    public Settings settings() {
        return side.settings;
    }

    @Override
    public Control control() {
        return side.control;
    }

    @Override
    public List<Thread> engineThreads() {
        return side.engineThreads;
    }

    @Override
    public List<String> describe() {
        List<String> out = new ArrayList<>();
        out.add("Connection      : " + connection + " (" + side.settings.qps() + " data QP"
                + (side.settings.qps() == 1 ? "" : "s") + " + 1 control QP)");
        side.qps[0].connectionAttr().ifPresent(a -> out.add("MPA             : revision " + a.mpaRevision() + ", CRC "
                + (a.crc() ? "on" : "off") + ", markers " + (a.markersRx() || a.markersTx() ? "on" : "off")
                + (a.rtr() != null ? ", RTR " + a.rtr().name().toLowerCase() : "") + ", ORD " + a.ord() + " / IRD "
                + a.ird()));
        if (!side.options.engine()) {
            out.add("Device          : provider " + side.device.providerName() + ": the kernel's iWARP stack (its TCP,"
                    + " MPA, DDP and RDMAP)");
            return out;
        }
        out.add("Socket I/O      : " + side.device.socketIoLayer() + switch (side.device.socketIoLayer()) {
            case "syscalls" -> " (sendmsg/readv on the socket's descriptor, through FFM)";
            case "nio" -> " (SocketChannel's vectored calls)";
            default -> "";
        });
        return out;
    }

    /** The negotiated attributes of data QP 0. */
    public QpAttr attr() {
        return side.qps[0].connectionAttr().orElseThrow();
    }

    @Override
    public void prepare(int size) {
        TestKind t = side.settings.test();
        for (int i = 0; i < side.qps.length; i++) {
            side.inSeg(i).asSlice(0, size).fill((byte) 0);
            Payload.fill(side.outSeg(i), 0, size, size);
        }
        TestKind.Verb v = t.verb();
        if (v == TestKind.Verb.SEND || v == TestKind.Verb.WRITE_IMM) {
            if (t.isLatency()) {
                side.topUpRecvs(0);
            } else if (receiver != null) {
                receiver.prepare();
            }
        }
    }

    @Override
    public SideReport runClient(int size, long iterations, long durationNanos, CpuMeter meter) {
        if (pingPong != null) {
            return pingPong.client(size, iterations, durationNanos, meter);
        }
        if (readLatency != null) {
            return readLatency.client(size, iterations, durationNanos, meter);
        }
        return stream.client(size, iterations, durationNanos, meter);
    }

    @Override
    public void warmingUp(boolean on) {
        side.warmingUp = on;
    }

    @Override
    public boolean serverActive() {
        return pingPong != null || receiver != null;
    }

    @Override
    public void runServer(int size) {
        if (pingPong != null) {
            pingPong.server(size);
        } else {
            receiver.run(size);
        }
    }

    @Override
    public SideReport serverReport(int size, CpuMeter meter, SideReport clientReport) {
        if (pingPong != null) {
            return pingPong.serverReport(size, meter);
        }
        if (receiver != null) {
            return receiver.report(size, meter);
        }
        int verified = SideReport.NOT_CHECKED;
        String detail = "passive: the engine served the READs";
        if (side.settings.test().verb() == TestKind.Verb.WRITE) {
            verified = SideReport.VERIFIED;
            detail = "the WRITE target's pattern on every QP";
            for (int i = 0; i < side.qps.length; i++) {
                long at = Payload.check(side.inSeg(i), 0, size, size);
                if (at >= 0) {
                    verified = SideReport.FAILED;
                    detail = Payload.mismatch("server, QP " + i, side.inSeg(i), 0, at, size);
                    break;
                }
            }
        }
        return SideReport.of(false, size, 0, 0, 0, null, meter, verified, detail);
    }

    @Override
    public void close() {
        side.close();
    }
}
