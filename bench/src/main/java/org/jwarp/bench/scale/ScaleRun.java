package org.jwarp.bench.scale;

import java.io.IOException;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.jwarp.bench.perf.PerfException;
import org.jwarp.bench.report.Progress;
import org.jwarp.engine.provider.JwarpConfig;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;

/**
 * The client side of {@code jwarp scale}: connects N QPs to a {@link ScaleServer} process through
 * MPA, spread over several loopback addresses (a client address and port reach each server
 * address's port once, so 28,000 ephemeral ports give 28,000 connections per server address), at
 * most {@link #WINDOW} setups in flight; then measures, in order: each process's memory per QP
 * (QP 0 alone against all N), the engine threads' CPU over an idle window, the ping-pong on QP 0
 * beside the N - 1 idle QPs (against the same before they were connected), one WRITE and one SEND
 * on every QP with every byte checked by the server, and, after every QP and both devices are
 * closed, what each process holds more than at its start.
 */
public final class ScaleRun {

    /** Connection setups in flight at once: within every listener's accept queue. */
    static final int WINDOW = 256;
    /** Connections per server address (ephemeral ports 32768–60999 leave room for the control connection and others). */
    static final int PER_ADDRESS = 20_000;
    static final Duration EVENT_WAIT = Duration.ofSeconds(60);

    /** What the run is asked to do. */
    public record Options(int qps, JwarpConfig.SocketIo io, int idleMillis, int rounds, Duration peerTimeout) {
    }

    private final Options o;
    private final Progress progress;
    private final CmEventQueue events = new CmEventQueue();

    public ScaleRun(Options o, Progress progress) {
        this.o = o;
        this.progress = progress;
    }

    /** The server addresses for {@code qps} connections: 127.0.0.2 on, at least two. */
    public static List<String> addresses(int qps) {
        int n = Math.max(2, (qps + PER_ADDRESS - 1) / PER_ADDRESS);
        List<String> out = new ArrayList<>();
        for (int a = 0; a < n; a++) {
            out.add("127.0.0." + (2 + a));
        }
        return out;
    }

    /** What {@link #measure} found, with the device closed. */
    private record Measured(String layer, String threading, double setupSeconds, Footprint clientPerQp,
                            Footprint serverPerQp, double engine, double process, ScaleMessage serverIdle,
                            long[] alone, long[] beside, long verified, double closeSeconds) {
    }

    /** Runs against the server whose control port is {@code control} on 127.0.0.1. */
    public ScaleDocument run(InetSocketAddress control) throws IOException, InterruptedException {
        int n = o.qps();
        List<String> addresses = addresses(n);
        try (ScaleLink link = new ScaleLink(new Socket(control.getAddress(), control.getPort()))) {
            // what a first device starts once per process (the counter publisher's thread) is no leak of the run's
            new ScaleEnd(1, o.io()).close();
            Footprint start = Footprint.settled();
            Measured m = measure(link, addresses);
            Footprint serverLeft = link.ask(ScaleMessage.of("closed", n), ScaleServer.OP_WAIT).footprint();
            link.send(ScaleMessage.of("bye", 0));
            Footprint clientLeft = Footprint.settledSince(start);
            ScaleDocument.Leaked cl = ScaleDocument.Leaked.of(clientLeft);
            ScaleDocument.Leaked sl = ScaleDocument.Leaked.of(serverLeft);
            ScaleDocument.Side client = side(m.clientPerQp(), m.engine(), m.process(), cl);
            ScaleDocument.Side server = side(m.serverPerQp(), m.serverIdle().percent(), m.serverIdle().process(), sl);
            double aloneUs = median(m.alone()) / 1e3;
            double besideUs = median(m.beside()) / 1e3;
            long expected = (long) n * (ScaleEnd.WRITE_BYTES + ScaleEnd.SEND_BYTES);
            ScaleDocument.Leaked leaked = cl.plus(sl);
            return new ScaleDocument(ScaleDocument.SCHEMA, n, n, addresses, m.layer(), m.threading(),
                    (int) o.peerTimeout().toSeconds(), m.setupSeconds(), (n - 1) / m.setupSeconds(), m.closeSeconds(), Math.max(client.bytesPerQp(), server.bytesPerQp()),
                    client.idleEngineCpuPercent() + server.idleEngineCpuPercent(), o.idleMillis(), aloneUs, besideUs,
                    besideUs / aloneUs, p99(m.alone()) / 1e3, p99(m.beside()) / 1e3, o.rounds(), m.verified(), leaked,
                    client, server, m.verified() == expected && leaked.none());
        }
    }

    /** Everything from the device's open to its close (so that nothing of it is reachable after). */
    private Measured measure(ScaleLink link, List<String> addresses) throws InterruptedException {
        int n = o.qps();
        List<Integer> ports = link.ask(ScaleMessage.setup(n, addresses), ScaleServer.OP_WAIT).ports();
        List<InetSocketAddress> targets = new ArrayList<>();
        for (int a = 0; a < addresses.size(); a++) {
            targets.add(new InetSocketAddress(addresses.get(a), ports.get(a)));
        }
        try (ScaleEnd end = new ScaleEnd(n, o.io(), o.peerTimeout())) {
            QueuePair[] qps = new QueuePair[n];
            String threading = JwarpConfig.of(end.device.config()).threadingMode().name()
                    .toLowerCase(java.util.Locale.ROOT);
            String layer = end.device.socketIoLayer();
            // QP 0 alone: the ping-pong's first measurement (after one to warm up) and the memory's starting point
            progress.step(0, 8, "QP 0 alone: ping-pong", 0);
            connect(end, qps, targets, 0, 1);
            link.ask(ScaleMessage.of("established", 1), ScaleServer.OP_WAIT);
            PingPong pp = new PingPong(end, qps[0], peerIova, peerRkey);
            pingPong(link, pp);
            long[] alone = pingPong(link, pp);
            Footprint clientBefore = Footprint.now();
            Footprint serverBefore = link.ask(ScaleMessage.of("footprint", 0), ScaleServer.OP_WAIT).footprint();
            long t0 = System.nanoTime();
            connect(end, qps, targets, 1, n);
            link.ask(ScaleMessage.of("established", n), ScaleServer.OP_WAIT);
            double setupSeconds = (System.nanoTime() - t0) / 1e9;
            progress.step(1, 8, n + " QPs connected: idle window", o.idleMillis() * 1_000_000L);
            // the setup timers end (the initiator's silent-peer watch, StreamDriver) before the window opens
            Thread.sleep(500);
            link.send(ScaleMessage.of("idle", o.idleMillis()));
            EngineCpu.Reading i0 = EngineCpu.read();
            Thread.sleep(o.idleMillis());
            EngineCpu.Reading i1 = EngineCpu.read();
            ScaleMessage serverIdle = link.receive(ScaleServer.OP_WAIT);
            progress.step(2, 8, "memory per QP", 0);
            Footprint clientPerQp = perQp(Footprint.now().minus(clientBefore), n - 1);
            Footprint serverPerQp = perQp(link.ask(ScaleMessage.of("footprint", 0), ScaleServer.OP_WAIT).footprint()
                    .minus(serverBefore), n - 1);
            progress.step(3, 8, "ping-pong beside " + (n - 1) + " idle QPs", 0);
            long[] beside = pingPong(link, pp);
            progress.step(4, 8, "a WRITE and a SEND on each of " + n + " QPs", 0);
            writeEvery(end, qps);
            long verified = link.ask(ScaleMessage.of("verify", n), ScaleServer.OP_WAIT).n();
            progress.step(5, 8, "closing " + n + " QPs", 0);
            long c0 = System.nanoTime();
            closeAll(end, qps);
            double closeSeconds = (System.nanoTime() - c0) / 1e9;
            return new Measured(layer, threading, setupSeconds, clientPerQp, serverPerQp, i1.enginePercent(i0),
                    i1.processPercent(i0), serverIdle, alone, beside, verified, closeSeconds);
        }
    }

    /** The server's region (one for every QP), from QP 0's MPA Reply. */
    private long peerIova;
    private int peerRkey;

    /** Connects QPs {@code from} to {@code to - 1}, at most {@link #WINDOW} in setup at once. */
    private void connect(ScaleEnd end, QueuePair[] qps, List<InetSocketAddress> targets, int from, int to)
            throws InterruptedException {
        int next = from;
        int done = from;
        while (done < to) {
            while (next < to && next - done < WINDOW) {
                QueuePair qp = end.newQp(next);
                qps[next] = qp;
                end.device.connectionManager().connect(targets.get(next % targets.size()), qp,
                        ConnectParams.of(ScaleEnd.privateData(next, end.mr)), events);
                next++;
            }
            CmEvent e = events.poll(EVENT_WAIT, end.device);
            switch (e) {
                case null -> throw new PerfException("no connection event for " + EVENT_WAIT.toSeconds() + " s with "
                        + done + " of " + to + " QPs connected");
                case CmEvent.Established est -> {
                    if (done == 0) {
                        ByteBuffer pd = ByteBuffer.wrap(est.peerPrivateData());
                        pd.getInt();
                        peerIova = pd.getLong();
                        peerRkey = pd.getInt();
                    }
                    done++;
                    if ((done & 255) == 0) {
                        progress.step(done, to, "connected " + done + " of " + to + " QPs", 0);
                    }
                }
                default -> throw new PerfException("QP " + done + " of " + to + ": " + e);
            }
        }
    }

    /** The ping-pong on QP 0: the server pongs while this side pings; sorted half round trips. */
    private long[] pingPong(ScaleLink link, PingPong pp) {
        int warmUp = Math.max(1000, o.rounds() / 5);
        link.send(ScaleMessage.of("pong", warmUp + o.rounds()));
        long[] half = pp.ping(warmUp, o.rounds(), 0);
        link.receive(ScaleServer.OP_WAIT);
        return half;
    }

    /** One 64 B WRITE (unsignaled) and one signaled 8 B SEND on every QP; waits for every SEND's completion. */
    private void writeEvery(ScaleEnd end, QueuePair[] qps) {
        int n = qps.length;
        for (int q = 0; q < n; q++) {
            long at = ScaleEnd.writeOffset(q);
            for (int j = 0; j < ScaleEnd.WRITE_BYTES; j++) {
                end.memory.set(ValueLayout.JAVA_BYTE, at + j, ScaleEnd.pattern(q, j));
            }
            end.memory.set(ValueLayout.JAVA_LONG_UNALIGNED, end.sendOffset(q), q);
        }
        SendWr write = new SendWr(1);
        SendWr send = new SendWr(1);
        WorkCompletion[] wcs = new WorkCompletion[64];
        for (int i = 0; i < wcs.length; i++) {
            wcs[i] = new WorkCompletion();
        }
        int completed = 0;
        for (int q = 0; q < n; q++) {
            write.reset().opcode(WrOpcode.RDMA_WRITE).addSge(end.mr, ScaleEnd.writeOffset(q), ScaleEnd.WRITE_BYTES)
                    .remote(peerIova + ScaleEnd.writeOffset(q), peerRkey);
            send.reset().opcode(WrOpcode.SEND).signaled(true).wrId(q).addSge(end.mr, end.sendOffset(q),
                    ScaleEnd.SEND_BYTES);
            post(qps[q], write, q);
            post(qps[q], send, q);
            completed += take(end, wcs);
        }
        long deadline = System.nanoTime() + EVENT_WAIT.toNanos();
        while (completed < n) {
            int k = take(end, wcs);
            if (k == 0 && System.nanoTime() - deadline > 0) {
                throw new PerfException(completed + " of " + n + " SENDs completed in " + EVENT_WAIT.toSeconds() + " s");
            }
            completed += k;
        }
    }

    private static void post(QueuePair qp, SendWr wr, int q) {
        int rc = qp.postSend(wr);
        if (rc != PostStatus.OK) {
            throw new PerfException("QP " + q + ": posting failed: " + PostStatus.toString(rc));
        }
    }

    /** SEND completions taken from the CQ (the ping-pong's WRITE completions are skipped). */
    private static int take(ScaleEnd end, WorkCompletion[] wcs) {
        int k = end.cq.poll(wcs, wcs.length);
        int sends = 0;
        for (int i = 0; i < k; i++) {
            if (wcs[i].status() != WcStatus.SUCCESS) {
                throw new PerfException("a completion failed: " + wcs[i]);
            }
            if (wcs[i].opcode() == WcOpcode.SEND) {
                sends++;
            }
        }
        if (k == 0) {
            Thread.yield();
        }
        return sends;
    }

    /** Disconnects every QP and waits for each one's Disconnected event; closes it. */
    private void closeAll(ScaleEnd end, QueuePair[] qps) throws InterruptedException {
        for (QueuePair qp : qps) {
            end.device.connectionManager().disconnect(qp);
        }
        for (int done = 0; done < qps.length; ) {
            CmEvent e = events.poll(EVENT_WAIT, end.device);
            switch (e) {
                case null -> throw new PerfException(done + " of " + qps.length + " QPs disconnected after "
                        + EVENT_WAIT.toSeconds() + " s");
                case CmEvent.Disconnected d -> {
                    d.qp().close();
                    done++;
                }
                default -> throw new PerfException("closing: " + e);
            }
        }
    }

    private static Footprint perQp(Footprint delta, int qps) {
        int d = Math.max(1, qps);
        return new Footprint(delta.heapBytes() / d, delta.directBytes() / d, delta.rssBytes() / d, delta.fds(),
                delta.threads());
    }

    private static ScaleDocument.Side side(Footprint perQp, double engine, double process, ScaleDocument.Leaked l) {
        return new ScaleDocument.Side(perQp.javaBytes(), perQp.heapBytes(), perQp.directBytes(), perQp.rssBytes(),
                engine, process, l);
    }

    private static double median(long[] sorted) {
        return sorted[sorted.length / 2];
    }

    private static double p99(long[] sorted) {
        return sorted[(int) (sorted.length * 0.99)];
    }
}
