package org.jwarp.bench.experiment;

import java.io.EOFException;
import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.Arrays;
import org.jwarp.bench.run.Listening;
import org.jwarp.bench.transport.jwarp.CmSetup;
import org.jwarp.bench.transport.jwarp.RemoteBuffer;
import org.jwarp.bench.transport.sockets.SocketSetup;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.CompletionChannel;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.ConnectionRequest;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.Moderation;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcOpcode;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;

/**
 * One side of seed 000's overlap test (Fig. 4a), in a process of its own. The client times
 * iterations of: start a ping-pong of SIZE bytes each way, compute (a dummy loop of C ms), finish
 * the ping-pong; overlap = computation time / total time. By RDMA WRITE the client posts the ping
 * into the server's buffer and a SEND saying it is there, computes, then waits for the server's
 * WRITE and SEND of the pong: the engines move both while the application computes. By sockets
 * (non-blocking, as the paper's) the socket takes what its buffer holds, the client computes, then
 * writes the rest and reads the pong. Both wait asleep (completion events, a selector).
 *
 * <p>Arguments: {@code serve jwarp|sockets SIZE pin|free} (prints a {@link Listening} line,
 * serves one client until it leaves) or {@code run jwarp|sockets HOST PORT SIZE pin|free WARMUP
 * C_MS:N,...} (WARMUP ping-pongs alone, then N timed iterations at each computation time; prints a
 * {@link Result} line for each, {@link ResultLines}). With {@code pin}
 * the client's computing thread has a CPU of its own ({@link ApplicationCpu}). The pong's bytes are
 * checked after each computation time's iterations.
 */
public final class OverlapSide {

    /**
     * One computation time's iterations, medians: the overlap ratio (computation / total), the
     * total and computation times and the round trip alone, in µs.
     */
    public record Result(double computeMs, double overlap, double totalUs, double computeUs, double roundTripUs,
                         int count) {
    }

    private static final Duration WAIT = Duration.ofSeconds(30);

    private OverlapSide() {
    }

    static byte pattern(int i) {
        return (byte) (i * 13 + 5);
    }

    /** A ping-pong that can be started, left to the transport during a computation, then finished. */
    interface PingPong extends AutoCloseable {
        void start() throws IOException;

        void finish() throws IOException, InterruptedException;

        /** Forgets the last pong, so that {@link #verify()} sees only later ones. */
        void clearPong();

        /** Checks the last pong's bytes against the pattern. */
        void verify() throws IOException;

        @Override
        void close() throws Exception;
    }

    public static void main(String[] args) {
        SideProcess.main("overlap side", out -> {
            boolean rdma = args[1].equals("jwarp");
            if (args[0].equals("serve")) {
                int size = Integer.parseInt(args[2]);
                if (args[3].equals("pin")) {
                    ApplicationCpu.leave();
                }
                if (rdma) {
                    serveRdma(size, out);
                } else {
                    serveSockets(size, out);
                }
                return;
            }
            InetSocketAddress to = new InetSocketAddress(InetAddress.getByName(args[2]), Integer.parseInt(args[3]));
            int size = Integer.parseInt(args[4]);
            boolean pin = args[5].equals("pin");
            if (pin) {
                ApplicationCpu.leave();
            }
            try (PingPong pp = rdma ? RdmaPingPong.connect(to, size) : SocketPingPong.connect(to, size)) {
                if (pin) {
                    ApplicationCpu.take();
                }
                measure(pp, Integer.parseInt(args[6]), args[7], out);
            }
        });
    }

    /**
     * Runs {@code warmup} ping-pongs with no computation untimed, as many timed (the round trip
     * alone), then each step of {@code plan}.
     */
    private static void measure(PingPong pp, int warmup, String plan, PrintStream out) throws Exception {
        long[] alone = new long[warmup];
        for (int k = -warmup; k < warmup; k++) {
            long t0 = System.nanoTime();
            pp.start();
            pp.finish();
            if (k >= 0) {
                alone[k] = System.nanoTime() - t0;
            }
        }
        Arrays.sort(alone);
        double roundTripUs = alone[warmup / 2] / 1e3;
        long sink = 0;
        for (String step : plan.split(",")) {
            String[] cn = step.split(":");
            double computeMs = Double.parseDouble(cn[0]);
            int n = Integer.parseInt(cn[1]);
            double[] ratio = new double[n];
            long[] total = new long[n];
            long[] compute = new long[n];
            pp.clearPong();
            for (int k = -1; k < n; k++) {     // the first, untimed, settles the new computation time
                long t0 = System.nanoTime();
                pp.start();
                long c0 = System.nanoTime();
                sink = DummyLoop.spin(computeMs, sink);
                long c1 = System.nanoTime();
                pp.finish();
                long t1 = System.nanoTime();
                if (k >= 0) {
                    total[k] = t1 - t0;
                    compute[k] = c1 - c0;
                    ratio[k] = (double) compute[k] / total[k];
                }
            }
            pp.verify();
            Arrays.sort(ratio);
            Arrays.sort(total);
            Arrays.sort(compute);
            ResultLines.print(out, new Result(computeMs, ratio[n / 2], total[n / 2] / 1e3, compute[n / 2] / 1e3,
                    roundTripUs, n));
        }
        out.println("done " + (sink == 42 ? "" : "."));
    }

    // ------------------------------------------------------------------ RDMA WRITE

    /**
     * One end of the RDMA ping-pong: a landing buffer the peer writes into, a source buffer filled
     * with the pattern, and 8-byte SENDs that say "written" (a SEND is delivered after the WRITE
     * before it has been placed, RFC 5040 §5.5).
     */
    static final class RdmaEnd implements AutoCloseable {
        final RdmaDevice dev;
        final Arena arena = Arena.ofShared();
        final CompletionChannel channel;
        final CompletionQueue cq;
        final MemoryRegion landing;
        final QueuePair qp;
        final CmEventQueue events = new CmEventQueue();
        private final MemoryRegion source;
        private final MemoryRegion control;
        private final int size;
        private final RecvWr recv;
        private final SendWr[] pair = {new SendWr(1), new SendWr(1)};
        private final WorkCompletion[] wcs = {new WorkCompletion()};

        RdmaEnd(int size) throws IOException {
            this.size = size;
            dev = CmSetup.open(OffloadNic.config()).device();
            ProtectionDomain pd = dev.allocPd();
            channel = dev.createCompletionChannel(Moderation.NONE);
            cq = dev.createCq(64, channel);
            landing = pd.registerMemory(arena.allocate(size, 64), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            source = pd.registerMemory(arena.allocate(size, 64), Access.LOCAL_WRITE);
            control = pd.registerMemory(arena.allocate(64, 64), Access.LOCAL_WRITE);
            for (int i = 0; i < size; i++) {
                source.segment().set(ValueLayout.JAVA_BYTE, i, pattern(i));
            }
            qp = dev.createQp(pd, QpInitAttr.builder(cq, cq).maxSendWr(16).maxRecvWr(16).build());
            recv = new RecvWr(1).wrId(2).addSge(control, 32, 32);
        }

        void postRecvs() throws IOException {
            for (int i = 0; i < 4; i++) {
                check(qp.postRecv(recv), "RECV");
            }
        }

        /** Posts the WRITE of the whole source into the peer's landing buffer and the SEND after it. */
        void send(RemoteBuffer peer) throws IOException {
            pair[0].reset().wrId(0).opcode(WrOpcode.RDMA_WRITE).signaled(false).addSge(source, 0, size)
                    .remote(peer.addr(), peer.rkey());
            pair[1].reset().wrId(1).opcode(WrOpcode.SEND).signaled(true).addSge(control, 0, 8);
            check(qp.postSend(pair, 2), "WRITE and SEND");
        }

        /**
         * Waits (asleep) for the peer's SEND, i.e. for its WRITE to have been placed, and posts the
         * receive again; completions of our own SENDs are taken on the way.
         *
         * @return false if nothing came within {@code timeoutMs}
         */
        boolean awaitPeer(long timeoutMs) throws IOException, InterruptedException {
            while (CqWait.next(cq, channel, wcs, timeoutMs)) {
                if (wcs[0].opcode() == WcOpcode.RECV) {
                    check(qp.postRecv(recv), "RECV");
                    return true;
                }
            }
            return false;
        }

        private static void check(int status, String what) throws IOException {
            if (!PostStatus.isOk(status)) {
                throw new IOException("posting " + what + " failed: " + status);
            }
        }

        @Override
        public void close() {
            dev.close();
            arena.close();
        }
    }

    private static void serveRdma(int size, PrintStream out) throws Exception {
        try (RdmaEnd end = new RdmaEnd(size)) {
            Listener listener = CmSetup.listen(end.dev, new InetSocketAddress(0), 1, end.events);
            Listening.print(out, listener.localAddress().getPort());
            ConnectionRequest r = CmSetup.awaitRequest(end.events, end.dev, WAIT, "the overlap client");
            RemoteBuffer client = RemoteBuffer.decode(r.privateData());
            end.postRecvs();
            CmSetup.accept(r, end.qp, CmSetup.accepting(RemoteBuffer.of(end.landing).encode()), end.events, end.dev,
                    WAIT);
            int pongs = 0;
            while (true) {
                try {
                    if (end.awaitPeer(200)) {
                        end.send(client);
                        pongs++;
                    } else if (end.events.poll() instanceof CmEvent.Disconnected) {
                        break;
                    }
                } catch (IOException e) {
                    // the client leaving flushes the posted receives: an end, not a failure
                    if (end.events.poll(Duration.ofSeconds(5), end.dev) instanceof CmEvent.Disconnected) {
                        break;
                    }
                    throw e;
                }
            }
            listener.close();
            out.println("served " + pongs + " pongs");
        }
    }

    static final class RdmaPingPong implements PingPong {
        private final RdmaEnd end;
        private final RemoteBuffer server;

        private RdmaPingPong(RdmaEnd end, RemoteBuffer server) {
            this.end = end;
            this.server = server;
        }

        static RdmaPingPong connect(InetSocketAddress to, int size) throws Exception {
            RdmaEnd end = new RdmaEnd(size);
            try {
                end.postRecvs();
                CmEvent.Established up = CmSetup.connect(end.dev, to, end.qp,
                        CmSetup.connecting(RemoteBuffer.of(end.landing).encode()), end.events, WAIT);
                return new RdmaPingPong(end, RemoteBuffer.decode(up.peerPrivateData()));
            } catch (IOException | RuntimeException e) {
                end.close();
                throw e;
            }
        }

        @Override
        public void start() throws IOException {
            end.send(server);
        }

        @Override
        public void finish() throws IOException, InterruptedException {
            if (!end.awaitPeer(WAIT.toMillis())) {
                throw new IOException("no pong in " + WAIT);
            }
        }

        @Override
        public void clearPong() {
            end.landing.segment().fill((byte) 0);
        }

        @Override
        public void verify() throws IOException {
            OverlapSide.verify(end.landing.segment());
        }

        @Override
        public void close() throws Exception {
            CmSetup.disconnect(end.dev, end.qp, end.events, WAIT);
            end.close();
        }
    }

    private static void verify(MemorySegment m) throws IOException {
        for (int i = 0; i < m.byteSize(); i++) {
            if (m.get(ValueLayout.JAVA_BYTE, i) != pattern(i)) {
                throw new IOException("the pong differs at byte " + i);
            }
        }
    }

    // ------------------------------------------------------------------ sockets

    private static void serveSockets(int size, PrintStream out) throws Exception {
        try (ServerSocketChannel l = SocketSetup.listen(new InetSocketAddress(0), 1)) {
            Listening.print(out, SocketSetup.port(l));
            try (SocketChannel c = SocketSetup.accept(l, WAIT)) {
                c.socket().setTcpNoDelay(true);
                ByteBuffer buf = ByteBuffer.allocateDirect(size);
                int pongs = 0;
                while (true) {
                    buf.clear();
                    while (buf.hasRemaining()) {
                        if (c.read(buf) < 0) {
                            out.println("served " + pongs + " pongs");
                            return;
                        }
                    }
                    buf.flip();
                    while (buf.hasRemaining()) {
                        c.write(buf);
                    }
                    pongs++;
                }
            }
        }
    }

    static final class SocketPingPong implements PingPong {
        private final SocketChannel ch;
        private final Selector selector;
        private final SelectionKey key;
        private final ByteBuffer ping;
        private final ByteBuffer pong;

        private SocketPingPong(SocketChannel ch, int size) throws IOException {
            this.ch = ch;
            ch.socket().setTcpNoDelay(true);
            ch.configureBlocking(false);
            selector = Selector.open();
            key = ch.register(selector, SelectionKey.OP_READ);
            ping = ByteBuffer.allocateDirect(size);
            pong = ByteBuffer.allocateDirect(size);
            for (int i = 0; i < size; i++) {
                ping.put(i, pattern(i));
            }
        }

        static SocketPingPong connect(InetSocketAddress to, int size) throws IOException {
            return new SocketPingPong(SocketSetup.connect(to, WAIT, "", ""), size);
        }

        /** The socket takes what its send buffer holds; the rest waits for {@link #finish()}. */
        @Override
        public void start() throws IOException {
            ping.clear();
            pong.clear();
            ch.write(ping);
        }

        @Override
        public void finish() throws IOException {
            while (ping.hasRemaining() || pong.hasRemaining()) {
                int moved = ping.hasRemaining() ? ch.write(ping) : 0;
                int got = ch.read(pong);
                if (got < 0) {
                    throw new EOFException("the server closed the connection");
                }
                if (moved + got == 0) {
                    key.interestOps(SelectionKey.OP_READ | (ping.hasRemaining() ? SelectionKey.OP_WRITE : 0));
                    selector.select(1000);
                    selector.selectedKeys().clear();
                }
            }
        }

        @Override
        public void clearPong() {
            for (int i = 0; i < pong.capacity(); i++) {
                pong.put(i, (byte) 0);
            }
        }

        @Override
        public void verify() throws IOException {
            OverlapSide.verify(MemorySegment.ofBuffer(pong.duplicate().clear()));
        }

        @Override
        public void close() throws IOException {
            selector.close();
            ch.close();
        }
    }
}
