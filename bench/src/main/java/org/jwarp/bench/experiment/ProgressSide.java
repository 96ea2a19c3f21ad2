package org.jwarp.bench.experiment;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
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
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;

/**
 * One side of seed 000's communication-progress test (Fig. 4b), in a process of its own. The
 * server holds 1 KiB of data and is busy: it runs a dummy loop for LOAD ms at a time, and only
 * between two loops does its application look at the network. The client fetches the 1 KiB again
 * and again and times each fetch: by RDMA READ (which the server's engine answers, whatever its
 * application does) or by a request and a response over a TCP socket (which waits for the
 * server's application). Both clients sleep while they wait (completion events, a blocking read).
 *
 * <p>Arguments: {@code serve jwarp|sockets LOAD_MS} (prints a {@link Listening} line, serves one
 * client until it leaves) or {@code fetch jwarp|sockets HOST PORT COUNT} (prints a {@link Result}
 * line, {@link ResultLines}). Data check: every fetch's 1 KiB is compared with the server's pattern.
 */
public final class ProgressSide {

    /** A client's fetches: their median, 99th percentile and minimum time in µs, and how many. */
    public record Result(double medianUs, double p99Us, double minUs, int count) {
    }

    static final int SIZE = 1024;
    private static final Duration WAIT = Duration.ofSeconds(30);

    private ProgressSide() {
    }

    static byte pattern(int i) {
        return (byte) (i * 7 + 3);
    }

    public static void main(String[] args) {
        SideProcess.main("progress side", out -> {
            boolean rdma = args[1].equals("jwarp");
            if (args[0].equals("serve")) {
                double loadMs = Double.parseDouble(args[2]);
                if (rdma) {
                    serveRdma(loadMs);
                } else {
                    serveSockets(loadMs);
                }
            } else {
                InetSocketAddress to = new InetSocketAddress(InetAddress.getByName(args[2]), Integer.parseInt(args[3]));
                int count = Integer.parseInt(args[4]);
                long[] ns = rdma ? fetchRdma(to, count) : fetchSockets(to, count);
                SideProcess.Times t = SideProcess.Times.of(ns);
                ResultLines.print(out, new Result(t.medianUs(), t.p99Us(), t.minUs(), ns.length));
            }
        });
    }

    // ------------------------------------------------------------------ RDMA READ

    private static void serveRdma(double loadMs) throws Exception {
        try (RdmaDevice dev = CmSetup.open(OffloadNic.config()).device(); Arena arena = Arena.ofShared()) {
            ProtectionDomain pd = dev.allocPd();
            CompletionQueue cq = dev.createCq(16, null);
            MemoryRegion data = pd.registerMemory(arena.allocate(SIZE, 64), Access.LOCAL_WRITE | Access.REMOTE_READ);
            for (int i = 0; i < SIZE; i++) {
                data.segment().set(ValueLayout.JAVA_BYTE, i, pattern(i));
            }
            QueuePair qp = dev.createQp(pd, QpInitAttr.builder(cq, cq).build());
            CmEventQueue events = new CmEventQueue();
            Listener listener = CmSetup.listen(dev, new InetSocketAddress(0), 1, events);
            Listening.print(System.out, listener.localAddress().getPort());
            ConnectionRequest r = CmSetup.awaitRequest(events, dev, WAIT, "the progress client");
            CmSetup.accept(r, qp, CmSetup.accepting(RemoteBuffer.of(data).encode()), events, dev, WAIT);
            long sink = 0;
            // the application is busy; between two loops it only looks whether the client has gone
            while (true) {
                sink = DummyLoop.spin(loadMs, sink);
                CmEvent e = events.poll();
                if (e instanceof CmEvent.Disconnected) {
                    break;
                }
            }
            listener.close();
            System.out.println("served; " + (sink == 42 ? "" : "done"));
        }
    }

    private static long[] fetchRdma(InetSocketAddress to, int count) throws Exception {
        try (RdmaDevice dev = CmSetup.open(OffloadNic.config()).device(); Arena arena = Arena.ofShared()) {
            ProtectionDomain pd = dev.allocPd();
            // the client sleeps on completion events: on a small machine its CPU is then free for the busy
            // server's engine, as the paper's client never competed with the server's NIC
            CompletionChannel channel = dev.createCompletionChannel(Moderation.NONE);
            CompletionQueue cq = dev.createCq(16, channel);
            MemoryRegion sink = pd.registerMemory(arena.allocate(SIZE, 64), Access.LOCAL_WRITE);
            QueuePair qp = dev.createQp(pd, QpInitAttr.builder(cq, cq).build());
            CmEventQueue events = new CmEventQueue();
            CmEvent.Established up = CmSetup.connect(dev, to, qp, CmSetup.connecting(new byte[0]), events, WAIT);
            RemoteBuffer data = RemoteBuffer.decode(up.peerPrivateData());
            SendWr read = new SendWr(1).wrId(1).opcode(WrOpcode.RDMA_READ).signaled(true).addSge(sink, 0, SIZE)
                    .remote(data.addr(), data.rkey());
            WorkCompletion[] wcs = {new WorkCompletion()};
            long[] ns = new long[count];
            for (int k = 0; k < count; k++) {
                sink.segment().fill((byte) 0);
                long t0 = System.nanoTime();
                if (!PostStatus.isOk(qp.postSend(read))) {
                    throw new IOException("post failed");
                }
                if (!CqWait.next(cq, channel, wcs, WAIT.toMillis())) {
                    throw new IOException("no READ completion in " + WAIT);
                }
                ns[k] = System.nanoTime() - t0;
                check(sink.segment());
            }
            CmSetup.disconnect(dev, qp, events, WAIT);
            return ns;
        }
    }

    private static void check(MemorySegment m) throws IOException {
        for (int i = 0; i < SIZE; i++) {
            if (m.get(ValueLayout.JAVA_BYTE, i) != pattern(i)) {
                throw new IOException("fetched data differs at byte " + i);
            }
        }
    }

    // ------------------------------------------------------------------ sockets request/response

    private static void serveSockets(double loadMs) throws Exception {
        byte[] data = new byte[SIZE];
        for (int i = 0; i < SIZE; i++) {
            data[i] = pattern(i);
        }
        try (ServerSocketChannel l = SocketSetup.listen(new InetSocketAddress(0), 1)) {
            Listening.print(System.out, SocketSetup.port(l));
            try (SocketChannel c = SocketSetup.accept(l, WAIT)) {
                c.configureBlocking(false);
                c.socket().setTcpNoDelay(true);
                ByteBuffer req = ByteBuffer.allocate(64);
                long sink = 0;
                while (true) {
                    sink = DummyLoop.spin(loadMs, sink);
                    // between two loops: answer every request that has arrived (non-blocking)
                    req.clear();
                    int n = c.read(req);
                    if (n < 0) {
                        break;
                    }
                    for (int k = 0; k < n; k++) {
                        ByteBuffer resp = ByteBuffer.wrap(data);
                        while (resp.hasRemaining()) {
                            c.write(resp);
                        }
                    }
                }
                System.out.println("served; " + (sink == 42 ? "" : "done"));
            }
        }
    }

    private static long[] fetchSockets(InetSocketAddress to, int count) throws Exception {
        try (SocketChannel ch = SocketSetup.connect(to, WAIT, "", "")) {
            Socket s = ch.socket();
            s.setTcpNoDelay(true);
            OutputStream out = s.getOutputStream();
            DataInputStream in = new DataInputStream(s.getInputStream());
            byte[] got = new byte[SIZE];
            long[] ns = new long[count];
            for (int k = 0; k < count; k++) {
                long t0 = System.nanoTime();
                out.write(1);
                in.readFully(got);
                ns[k] = System.nanoTime() - t0;
                for (int i = 0; i < SIZE; i++) {
                    if (got[i] != pattern(i)) {
                        throw new IOException("fetched data differs at byte " + i);
                    }
                }
            }
            return ns;
        }
    }
}
