package org.jwarp.bench.scale;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.function.IntConsumer;
import org.jwarp.bench.perf.PerfException;
import org.jwarp.engine.provider.JwarpConfig;
import org.jwarp.verbs.AcceptParams;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;

/**
 * The server process of a scale run: listens on the loopback addresses the client names, accepts
 * every connection with a QP of its own (its receive posted), and answers the client's ops on the
 * control connection ({@link ScaleMessage}): footprints, an idle window of its engine threads,
 * the pong side of the ping-pong, the check of every byte the client WROTE and SENT, and the
 * close. A thread of its own takes the connection events.
 */
public final class ScaleServer {

    static final Duration OP_WAIT = Duration.ofMinutes(10);
    /** The accept queue each listener asks for. */
    static final int BACKLOG = 1024;

    private final JwarpConfig.SocketIo io;
    private final Duration peerTimeout;
    private final Footprint start;
    private ScaleEnd end;
    private final List<Listener> listeners = new ArrayList<>();
    private AtomicReferenceArray<QueuePair> qps;
    private final AtomicInteger established = new AtomicInteger();
    private final AtomicInteger disconnected = new AtomicInteger();
    private final AtomicReference<String> failure = new AtomicReference<>();
    private final CmEventQueue events = new CmEventQueue();
    private volatile boolean running = true;
    private Thread eventThread;
    private PingPong pingPong;

    private ScaleServer(JwarpConfig.SocketIo io, Duration peerTimeout, Footprint start) {
        this.io = io;
        this.peerTimeout = peerTimeout;
        this.start = start;
    }

    /**
     * Listens for the client's control connection on 127.0.0.1, says so through {@code waiting}
     * (its port), and serves that one client until it says bye.
     */
    public static void serve(JwarpConfig.SocketIo io, Duration peerTimeout, IntConsumer waiting) throws IOException {
        try (ServerSocket control = new ServerSocket()) {
            control.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            waiting.accept(control.getLocalPort());
            try (ScaleLink link = new ScaleLink(control.accept())) {
                // what a first device starts once per process (the counter publisher's thread) is no leak of the run's
                new ScaleEnd(1, io).close();
                new ScaleServer(io, peerTimeout, Footprint.now()).run(link);
            }
        }
    }

    private void run(ScaleLink link) {
        try {
            while (true) {
                ScaleMessage m = link.receive(OP_WAIT);
                if (m.op().equals("bye")) {
                    return;
                }
                link.send(answer(m));
            }
        } catch (RuntimeException e) {
            link.send(ScaleMessage.failed(e.getMessage()));
            throw e;
        } finally {
            stop();
        }
    }

    private ScaleMessage answer(ScaleMessage m) {
        return switch (m.op()) {
            case "setup" -> setup((int) m.n(), m.addresses());
            case "established" -> {
                awaitCount(established, (int) m.n(), "established connections");
                yield ScaleMessage.of("established", established.get());
            }
            case "footprint" -> ScaleMessage.footprint("footprint", 0, Footprint.now());
            case "idle" -> {
                EngineCpu.Reading before = EngineCpu.read();
                sleep(m.n());
                EngineCpu.Reading after = EngineCpu.read();
                yield ScaleMessage.idle(m.n(), after.enginePercent(before), after.processPercent(before));
            }
            case "pong" -> {
                pingPong.pong((int) m.n(), 0);
                yield ScaleMessage.of("pong", m.n());
            }
            case "verify" -> ScaleMessage.of("verify", verify((int) m.n()));
            case "closed" -> {
                awaitCount(disconnected, (int) m.n(), "disconnected connections");
                stop();
                yield ScaleMessage.footprint("closed", disconnected.get(), Footprint.settledSince(start));
            }
            default -> throw new PerfException("unknown scale op '" + m.op() + "'");
        };
    }

    private ScaleMessage setup(int n, List<String> addresses) {
        end = new ScaleEnd(n, io, peerTimeout);
        qps = new AtomicReferenceArray<>(n);
        List<Integer> ports = new ArrayList<>();
        for (String a : addresses) {
            Listener l = end.device.connectionManager().listen(new InetSocketAddress(a, 0), BACKLOG, events);
            listeners.add(l);
            ports.add(l.localAddress().getPort());
        }
        eventThread = Thread.ofPlatform().name("jwarp-scale-events").start(this::takeEvents);
        return ScaleMessage.ports(ports);
    }

    /** The event thread: accepts every request (QP index and region in its private data), counts the rest. */
    private void takeEvents() {
        try {
            while (running) {
                CmEvent e = events.poll(Duration.ofMillis(100), end.device);
                switch (e) {
                    case null -> { }
                    case CmEvent.ConnectRequest r -> accept(r);
                    case CmEvent.Established est -> established.incrementAndGet();
                    case CmEvent.Disconnected d -> {
                        if (d.cause() != CmEvent.Disconnected.Cause.PEER_CLOSED) {
                            unexpected(e);                 // the client closes every connection first
                        }
                        d.qp().close();
                        disconnected.incrementAndGet();
                    }
                    default -> unexpected(e);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (RuntimeException e) {
            failure.compareAndSet(null, String.valueOf(e.getMessage()));
        }
    }

    /** An event the run does not expect: said at once on standard error (the client shows it), and a failure. */
    private void unexpected(CmEvent e) {
        System.err.println("jwarp: scale server: " + e);
        System.err.flush();
        failure.compareAndSet(null, "connection event " + e);
    }

    private void accept(CmEvent.ConnectRequest r) {
        ByteBuffer pd = ByteBuffer.wrap(r.request().privateData());
        int index = pd.getInt();
        if (index < 0 || index >= qps.length() || qps.get(index) != null) {
            throw new PerfException("a connection request for QP " + index + ", outside 0.." + (qps.length() - 1)
                    + " or twice");
        }
        QueuePair qp = end.newQp(index);
        qps.set(index, qp);
        if (index == 0) {
            pingPong = new PingPong(end, qp, pd.getLong(), pd.getInt());
        }
        r.request().accept(qp, AcceptParams.of(ScaleEnd.privateData(index, end.mr)));
    }

    /**
     * Takes {@code n} receive completions (one per QP; the ping-pong's WRITE completions are
     * skipped), then checks every QP's WRITE and SEND byte for byte. Returns the bytes checked.
     */
    private long verify(int n) {
        WorkCompletion[] wcs = new WorkCompletion[64];
        for (int i = 0; i < wcs.length; i++) {
            wcs[i] = new WorkCompletion();
        }
        boolean[] received = new boolean[n];
        int got = 0;
        long deadline = System.nanoTime() + OP_WAIT.toNanos();
        while (got < n) {
            int k = end.cq.poll(wcs, wcs.length);
            for (int i = 0; i < k; i++) {
                WorkCompletion wc = wcs[i];
                if (wc.status() != WcStatus.SUCCESS) {
                    throw new PerfException("a completion failed: " + wc);
                }
                if (wc.opcode() != WcOpcode.RECV) {
                    continue;
                }
                int index = (int) wc.wrId();
                if (received[index] || wc.byteLen() != ScaleEnd.SEND_BYTES) {
                    throw new PerfException("QP " + index + "'s receive completed twice or with " + wc.byteLen()
                            + " bytes");
                }
                received[index] = true;
                got++;
            }
            if (k == 0) {
                if (System.nanoTime() - deadline > 0) {
                    throw new PerfException("only " + got + " of " + n + " SENDs arrived");
                }
                Thread.yield();
            }
            checkFailure();
        }
        long bytes = 0;
        for (int q = 0; q < n; q++) {
            long at = ScaleEnd.writeOffset(q);
            for (int j = 0; j < ScaleEnd.WRITE_BYTES; j++) {
                byte b = end.memory.get(java.lang.foreign.ValueLayout.JAVA_BYTE, at + j);
                if (b != ScaleEnd.pattern(q, j)) {
                    throw new PerfException("QP " + q + "'s WRITE: byte " + j + " is " + b + ", not "
                            + ScaleEnd.pattern(q, j));
                }
            }
            long sent = end.memory.get(java.lang.foreign.ValueLayout.JAVA_LONG_UNALIGNED, end.recvOffset(q));
            if (sent != q) {
                throw new PerfException("QP " + q + "'s SEND carried " + sent + ", not its index");
            }
            bytes += ScaleEnd.WRITE_BYTES + ScaleEnd.SEND_BYTES;
        }
        return bytes;
    }

    private void awaitCount(AtomicInteger count, int n, String what) {
        long deadline = System.nanoTime() + OP_WAIT.toNanos();
        while (count.get() < n) {
            checkFailure();
            if (System.nanoTime() - deadline > 0) {
                throw new PerfException(count.get() + " of " + n + " " + what + " after " + OP_WAIT.toMinutes() + " min");
            }
            sleep(5);
        }
    }

    private void checkFailure() {
        String f = failure.get();
        if (f != null) {
            throw new PerfException(f);
        }
    }

    /** Ends the event thread, the listeners and the device (idempotent). */
    private void stop() {
        running = false;
        if (eventThread != null) {
            try {
                eventThread.join(10_000);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            eventThread = null;
        }
        for (Listener l : listeners) {
            l.close();
        }
        listeners.clear();
        if (end != null) {
            end.close();
            end = null;
            qps = null;
            pingPong = null;
        }
    }

    static void sleep(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new PerfException("interrupted");
        }
    }
}
