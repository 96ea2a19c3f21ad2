package org.jwarp.bench.experiment;

import java.io.IOException;
import java.io.PrintStream;
import java.lang.foreign.Arena;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.jwarp.bench.run.Listening;
import org.jwarp.bench.transport.jwarp.CmSetup;
import org.jwarp.bench.transport.jwarp.RemoteBuffer;
import org.jwarp.bench.transport.sockets.SocketSetup;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.CompletionChannel;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.CounterNames;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.Moderation;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;

/**
 * One side of seed 000's CPU-impact test (Fig. 7), in a process of its own. The server's
 * application runs a fixed CPU-bound job ({@link DummyLoop#work}) once alone and once while CLIENTS
 * connections stream SIZE-byte messages to it without pause. By RDMA WRITE the server's engine
 * places the messages in registered memory and the application never looks at them; by sockets
 * the application itself must read them, and does so between two steps of its job (every 0.1 ms
 * of work), as a single-threaded server does.
 *
 * <p>Arguments: {@code serve jwarp|sockets SIZE CLIENTS JOB_MS pin|free} (measures the job alone
 * first, then prints a {@link Listening} line, then after the loaded run a {@link Result} line,
 * {@link ResultLines}) or {@code stream jwarp|sockets HOST PORT SIZE
 * CLIENTS pin|free} (streams until the server goes, then prints {@code streamed bytes=...}). The
 * job's length is calibrated in the server's process to JOB_MS alone, then fixed; each time is the
 * shortest of a few runs.
 */
public final class CpuImpactSide {

    /** The job's time alone and under load in ms, what arrived during the loaded runs in MiB/s, the job's units. */
    public record Result(double aloneMs, double loadedMs, double rxMibS, long units) {
    }

    private static final Duration WAIT = Duration.ofSeconds(30);
    /** WRITEs in flight per connection. */
    private static final int DEPTH = 2;
    /** How long the streams run before the job starts, so that it meets them at full rate. */
    private static final long SETTLE_MS = 200;
    /**
     * Runs of the job alone and under load; each time is the shortest of its runs, since whatever
     * else runs on the machine can only lengthen a run.
     */
    public static final int ALONE_RUNS = 3;
    public static final int LOADED_RUNS = 2;

    private CpuImpactSide() {
    }

    public static void main(String[] args) {
        SideProcess.main("cpu-impact side", out -> {
            boolean rdma = args[1].equals("jwarp");
            if (args[0].equals("serve")) {
                int size = Integer.parseInt(args[2]);
                int clients = Integer.parseInt(args[3]);
                double jobMs = Double.parseDouble(args[4]);
                boolean pin = args[5].equals("pin");
                if (pin) {
                    ApplicationCpu.leave();
                }
                if (rdma) {
                    serveRdma(size, clients, jobMs, pin, out);
                } else {
                    serveSockets(size, clients, jobMs, pin, out);
                }
                return;
            }
            InetSocketAddress to = new InetSocketAddress(InetAddress.getByName(args[2]), Integer.parseInt(args[3]));
            int size = Integer.parseInt(args[4]);
            int clients = Integer.parseInt(args[5]);
            if (args[6].equals("pin")) {
                ApplicationCpu.leave();
            }
            long bytes = rdma ? streamRdma(to, size, clients) : streamSockets(to, size, clients);
            out.println("streamed bytes=" + bytes);
        });
    }

    // ------------------------------------------------------------------ the server's job

    /** What the application does between two steps of its job. */
    @FunctionalInterface
    interface BetweenSteps {
        void run() throws IOException;
    }

    /** The job: a fixed number of work units, in steps of about 0.1 ms. */
    record Job(long units, long step) {

        /** Calibrates the units that last {@code ms} here, alone; this also compiles the loop. */
        static Job calibrate(double ms) {
            long sink = 0;
            long units = 0;
            long t0 = System.nanoTime();
            long until = t0 + 300_000_000L;
            while (System.nanoTime() - until < 0) {
                sink = DummyLoop.work(64, sink);
                units += 64;
            }
            double perMs = units / ((System.nanoTime() - t0) / 1e6);
            return new Job(Math.max(1, (long) (perMs * ms) + (sink == 42 ? 1 : 0)), Math.max(1, (long) (perMs / 10)));
        }

        /** Runs the job {@code runs} times and returns the shortest wall-clock time in ns. */
        long shortest(int runs, BetweenSteps between) throws IOException {
            long best = Long.MAX_VALUE;
            for (int i = 0; i < runs; i++) {
                best = Math.min(best, run(between));
            }
            return best;
        }

        /** Runs the job and returns its wall-clock time in ns. */
        long run(BetweenSteps between) throws IOException {
            long sink = 0;
            long t0 = System.nanoTime();
            for (long done = 0; done < units; done += step) {
                sink = DummyLoop.work(Math.min(step, units - done), sink);
                between.run();
            }
            long ns = System.nanoTime() - t0;
            return sink == 42 ? ns + 1 : ns;
        }
    }

    /** The result line: the job's times, and what arrived during the loaded runs ({@code bytes} in {@code ns}). */
    private static void result(PrintStream out, Job job, long aloneNs, long loadedNs, long bytes, long ns) {
        ResultLines.print(out, new Result(aloneNs / 1e6, loadedNs / 1e6, bytes / (1024.0 * 1024.0) / (ns / 1e9),
                job.units()));
    }

    // ------------------------------------------------------------------ RDMA WRITE

    private static void serveRdma(int size, int clients, double jobMs, boolean pin, PrintStream out) throws Exception {
        try (Arena arena = Arena.ofShared(); RdmaDevice dev = CmSetup.open(OffloadNic.config()).device()) {
            ProtectionDomain pd = dev.allocPd();
            CompletionQueue cq = dev.createCq(16, null);
            MemoryRegion slots = pd.registerMemory(arena.allocate((long) size * clients, 64),
                    Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            CmEventQueue events = new CmEventQueue();
            Listener listener = CmSetup.listen(dev, new InetSocketAddress(0), clients, events);
            if (pin) {
                ApplicationCpu.take();
            }
            Job job = Job.calibrate(jobMs);
            long alone = job.shortest(ALONE_RUNS, () -> { });
            Listening.print(out, listener.localAddress().getPort());
            List<QueuePair> qps = new ArrayList<>();
            for (int up = 0; up < clients; ) {
                CmEvent e = CmSetup.await(events, dev, WAIT, "the cpu-impact clients");
                if (e instanceof CmEvent.ConnectRequest r) {
                    // each client's slot goes in its Reply; the clients set up at once, so no wait here
                    QueuePair qp = dev.createQp(pd, QpInitAttr.builder(cq, cq).build());
                    r.request().accept(qp, CmSetup.accepting(RemoteBuffer.of(slots).plus((long) size * qps.size())
                            .encode()));
                    qps.add(qp);
                } else if (e instanceof CmEvent.Established) {
                    up++;
                } else {
                    throw new IOException("while " + clients + " clients connected: " + e);
                }
            }
            Thread.sleep(SETTLE_MS);
            long rx0 = dev.counters().get(CounterNames.BYTES_RX);
            long t0 = System.nanoTime();
            // the application never looks at the network: the engine places every message
            long loaded = job.shortest(LOADED_RUNS, () -> { });
            long all = System.nanoTime() - t0;
            result(out, job, alone, loaded, dev.counters().get(CounterNames.BYTES_RX) - rx0, all);
            listener.close();
        }
    }

    private static long streamRdma(InetSocketAddress to, int size, int clients) throws Exception {
        try (Arena arena = Arena.ofShared(); RdmaDevice dev = CmSetup.open(OffloadNic.config()).device()) {
            ProtectionDomain pd = dev.allocPd();
            CompletionChannel channel = dev.createCompletionChannel(Moderation.NONE);
            CompletionQueue cq = dev.createCq(clients * DEPTH * 2, channel);
            MemoryRegion source = pd.registerMemory(arena.allocate(size, 64), Access.LOCAL_WRITE);
            CmEventQueue events = new CmEventQueue();
            Map<QueuePair, Integer> index = new HashMap<>();
            QueuePair[] qps = new QueuePair[clients];
            for (int i = 0; i < clients; i++) {
                qps[i] = dev.createQp(pd, QpInitAttr.builder(cq, cq).maxSendWr(DEPTH * 2).build());
                index.put(qps[i], i);
                dev.connectionManager().connect(to, qps[i], CmSetup.connecting(new byte[0]), events);
            }
            SendWr[] writes = new SendWr[clients];
            for (int up = 0; up < clients; up++) {
                CmEvent next = CmSetup.await(events, dev, WAIT, CmSetup.where(to));
                if (!(next instanceof CmEvent.Established e)) {
                    throw CmSetup.refused(next, CmSetup.where(to) + " (" + up + " of " + clients + " connections up)");
                }
                int i = index.get(e.qp());
                RemoteBuffer slot = RemoteBuffer.decode(e.peerPrivateData());
                writes[i] = new SendWr(1).wrId(i).opcode(WrOpcode.RDMA_WRITE).signaled(true).addSge(source, 0, size)
                        .remote(slot.addr(), slot.rkey());
            }
            for (int i = 0; i < clients; i++) {
                for (int d = 0; d < DEPTH; d++) {
                    post(qps[i], writes[i]);
                }
            }
            WorkCompletion[] wcs = {new WorkCompletion()};
            long bytes = 0;
            try {
                while (CqWait.next(cq, channel, wcs, WAIT.toMillis())) {
                    bytes += size;
                    post(qps[(int) wcs[0].wrId()], writes[(int) wcs[0].wrId()]);
                }
            } catch (IOException e) {
                // the server going away fails the WRITEs in flight: the end of the stream
            }
            return bytes;
        }
    }

    private static void post(QueuePair qp, SendWr wr) throws IOException {
        int status = qp.postSend(wr);
        if (!PostStatus.isOk(status)) {
            throw new IOException("posting a WRITE failed: " + status);
        }
    }

    // ------------------------------------------------------------------ sockets

    private static void serveSockets(int size, int clients, double jobMs, boolean pin, PrintStream out)
            throws Exception {
        try (ServerSocketChannel l = SocketSetup.listen(new InetSocketAddress(0), clients);
             Selector selector = Selector.open()) {
            if (pin) {
                ApplicationCpu.take();
            }
            Job job = Job.calibrate(jobMs);
            long alone = job.shortest(ALONE_RUNS, () -> { });
            Listening.print(out, SocketSetup.port(l));
            List<SocketChannel> channels = new ArrayList<>();
            for (int i = 0; i < clients; i++) {
                SocketChannel c = SocketSetup.accept(l, WAIT);
                c.configureBlocking(false);
                c.register(selector, SelectionKey.OP_READ);
                channels.add(c);
            }
            SocketReader reader = new SocketReader(selector, size);
            long settle = System.nanoTime() + SETTLE_MS * 1_000_000;
            while (System.nanoTime() - settle < 0) {
                reader.run();
            }
            long rx0 = reader.bytes;
            long t0 = System.nanoTime();
            long loaded = job.shortest(LOADED_RUNS, reader);
            result(out, job, alone, loaded, reader.bytes - rx0, System.nanoTime() - t0);
            for (SocketChannel c : channels) {
                c.close();
            }
        }
    }

    /** The application's look at its sockets between two steps: reads whatever has arrived. */
    static final class SocketReader implements BetweenSteps {
        private final Selector selector;
        private final ByteBuffer scratch;
        long bytes;

        SocketReader(Selector selector, int size) {
            this.selector = selector;
            this.scratch = ByteBuffer.allocateDirect(Math.max(size, 64 * 1024));
        }

        @Override
        public void run() throws IOException {
            if (selector.selectNow() == 0) {
                return;
            }
            for (SelectionKey k : selector.selectedKeys()) {
                SocketChannel c = (SocketChannel) k.channel();
                int n;
                do {
                    scratch.clear();
                    n = c.read(scratch);
                    if (n > 0) {
                        bytes += n;
                    }
                } while (n > 0);
                if (n < 0) {
                    k.cancel();
                }
            }
            selector.selectedKeys().clear();
        }
    }

    private static long streamSockets(InetSocketAddress to, int size, int clients) throws IOException {
        ByteBuffer message = ByteBuffer.allocateDirect(size);
        long bytes = 0;
        try (Selector selector = Selector.open()) {
            for (int i = 0; i < clients; i++) {
                SocketChannel c = SocketSetup.connect(to, WAIT, "", "");
                c.configureBlocking(false);
                c.register(selector, SelectionKey.OP_WRITE, message.duplicate());
            }
            long deadline = System.nanoTime() + 300_000_000_000L;
            try {
                while (System.nanoTime() - deadline < 0 && !selector.keys().isEmpty()) {
                    selector.select(1000);
                    for (SelectionKey k : selector.selectedKeys()) {
                        ByteBuffer b = (ByteBuffer) k.attachment();
                        bytes += ((SocketChannel) k.channel()).write(b);
                        if (!b.hasRemaining()) {
                            b.clear();
                        }
                    }
                    selector.selectedKeys().clear();
                }
            } catch (IOException e) {
                // the server closing its end fails the next write: the end of the stream
            }
            for (SelectionKey k : selector.keys()) {
                k.channel().close();
            }
        }
        return bytes;
    }
}
