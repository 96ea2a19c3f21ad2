package org.jwarp.bench.engine;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import org.jwarp.engine.provider.JwarpConfig;
import org.jwarp.verbs.AcceptParams;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.DeviceLimits;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WrOpcode;

/**
 * What idle connections cost the busy one beside them: an 8-byte RDMA WRITE ping-pong on one QP
 * pair while N more connected QP pairs between the same two devices stay idle. Both devices run
 * in invoker mode on the calling thread, which posts, then runs the receiving device's duty
 * cycles until the byte is placed, and back: a round is four duty cycles' work at least, and
 * every idle connection a cycle visits shows in it. Reports the median and p99 of half a round
 * trip for each N, and each median's ratio to the first N's, measured in the same run. A first
 * line gives the same exchange over two plain sockets on the same thread (Java NIO, non-blocking:
 * a write and the reads that take it, each way): what the engine adds per message is the
 * difference.
 *
 * <p>Run: {@code java --enable-native-access=ALL-UNNAMED
 * --add-opens java.base/sun.nio.ch=ALL-UNNAMED -cp bench/target/jwarp-jmh.jar
 * org.jwarp.bench.engine.IdleNeighbours [rounds] [N...]} (defaults 20000; 0 10 100 1000).
 */
public final class IdleNeighbours {

    private static final Duration WAIT = Duration.ofSeconds(30);

    private IdleNeighbours() {
    }

    public static void main(String[] args) {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 20_000;
        int[] idle = args.length > 1
                ? Arrays.stream(args, 1, args.length).mapToInt(Integer::parseInt).toArray()
                : new int[] {0, 10, 100, 1000};
        System.out.printf(Locale.ROOT, "8 B WRITE ping-pong beside N idle connections, one thread, invoker mode,"
                + " %d rounds each (RTT/2)%n", rounds);
        long[] sockets = nioHalfRoundTrips(rounds);
        Arrays.sort(sockets);
        System.out.printf(Locale.ROOT, "NIO sockets, the same thread  p50 %9.2f us  p99 %9.2f us%n",
                sockets[sockets.length / 2] / 1e3, sockets[(int) (sockets.length * 0.99)] / 1e3);
        double first = 0;
        for (int n : idle) {
            long[] half = run(n, rounds);
            Arrays.sort(half);
            double p50 = half[half.length / 2] / 1e3;
            if (first == 0) {
                first = p50;
            }
            System.out.printf(Locale.ROOT, "N %6d  p50 %9.2f us  p99 %9.2f us  p50/first %7.2fx%n", n, p50,
                    half[(int) (half.length * 0.99)] / 1e3, p50 / first);
        }
    }

    private static long[] run(int idle, int rounds) {
        DeviceConfig config = DeviceConfig.builder().provider(JwarpConfig.builder()
                .threadingMode(JwarpConfig.ThreadingMode.INVOKER).build()).limits(DeviceLimits.DEFAULT.withMaxQps(Math
                .max(DeviceLimits.DEFAULT.maxQps(), idle + 1))).build();
        List<QueuePair> clientQps = new ArrayList<>();
        List<QueuePair> serverQps = new ArrayList<>();
        try (RdmaDevice client = RdmaDevice.open(config); RdmaDevice server = RdmaDevice.open(config);
             Arena arena = Arena.ofConfined()) {
            ProtectionDomain cpd = client.allocPd();
            ProtectionDomain spd = server.allocPd();
            CompletionQueue ccq = client.createCq(1024, null);
            CompletionQueue scq = server.createCq(1024, null);
            CmEventQueue clientEvents = new CmEventQueue();
            CmEventQueue serverEvents = new CmEventQueue();
            Listener listener = server.connectionManager().listen(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 64, serverEvents);
            for (int i = 0; i <= idle; i++) {
                QueuePair c = client.createQp(cpd, QpInitAttr.builder(ccq, ccq).build());
                QueuePair s = server.createQp(spd, QpInitAttr.builder(scq, scq).build());
                clientQps.add(c);
                serverQps.add(s);
                client.connectionManager().connect(listener.localAddress(), c, ConnectParams.of(new byte[0]),
                        clientEvents);
                CmEvent request = expect(serverEvents, CmEvent.ConnectRequest.class, client, server);
                ((CmEvent.ConnectRequest) request).request().accept(s, AcceptParams.of(new byte[0]));
                expect(serverEvents, CmEvent.Established.class, client, server);
                expect(clientEvents, CmEvent.Established.class, client, server);
            }
            int access = Access.LOCAL_WRITE | Access.REMOTE_WRITE;
            MemoryRegion cmr = cpd.registerMemory(arena.allocate(64, 64), access);
            MemoryRegion smr = spd.registerMemory(arena.allocate(64, 64), access);
            SendWr ping = new SendWr().opcode(WrOpcode.RDMA_WRITE).addSge(cmr, 0, 8).remote(smr.iova(), smr.rkey());
            SendWr pong = new SendWr().opcode(WrOpcode.RDMA_WRITE).addSge(smr, 8, 8)
                    .remote(cmr.iova() + 8, cmr.rkey());
            QueuePair pinger = clientQps.getFirst();
            QueuePair ponger = serverQps.getFirst();
            int warmUp = Math.max(1000, rounds / 5);
            long[] half = new long[rounds];
            for (int r = 0; r < warmUp + rounds; r++) {
                byte b = (byte) (r + 1);
                long t0 = System.nanoTime();
                cmr.segment().set(ValueLayout.JAVA_BYTE, 7, b);
                post(pinger, ping);
                await(server, smr.segment(), 7, b);
                smr.segment().set(ValueLayout.JAVA_BYTE, 15, b);
                post(ponger, pong);
                await(client, cmr.segment(), 15, b);
                if (r >= warmUp) {
                    half[r - warmUp] = (System.nanoTime() - t0) / 2;
                }
            }
            for (QueuePair qp : clientQps) {
                qp.close();
            }
            listener.close();
            return half;
        }
    }

    /**
     * The baseline: 8 bytes over a loopback TCP connection and 8 back, both ends non-blocking on
     * this thread, as many rounds after a warm-up; half of each round trip.
     */
    private static long[] nioHalfRoundTrips(int rounds) {
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            try (SocketChannel a = SocketChannel.open(server.getLocalAddress()); SocketChannel b = server.accept()) {
                for (SocketChannel ch : new SocketChannel[] {a, b}) {
                    ch.configureBlocking(false);
                    ch.setOption(StandardSocketOptions.TCP_NODELAY, true);
                }
                ByteBuffer out = ByteBuffer.allocateDirect(8);
                ByteBuffer in = ByteBuffer.allocateDirect(8);
                int warmUp = Math.max(1000, rounds / 5);
                long[] half = new long[rounds];
                for (int r = 0; r < warmUp + rounds; r++) {
                    long t0 = System.nanoTime();
                    out.clear().putLong(0, r);
                    exchange(a, b, out, in, r);
                    out.clear();
                    exchange(b, a, out, in, r);
                    if (r >= warmUp) {
                        half[r - warmUp] = (System.nanoTime() - t0) / 2;
                    }
                }
                return half;
            }
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("the sockets baseline failed", e);
        }
    }

    /** Writes {@code out} on {@code from} and reads it whole on {@code to}, checking its round. */
    private static void exchange(SocketChannel from, SocketChannel to, ByteBuffer out, ByteBuffer in, long round)
            throws java.io.IOException {
        while (out.hasRemaining()) {
            from.write(out);
        }
        in.clear();
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (in.hasRemaining()) {
            if (to.read(in) < 0 || System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the sockets baseline lost its peer or stalled");
            }
        }
        if (in.getLong(0) != round) {
            throw new IllegalStateException("the sockets baseline received round " + in.getLong(0) + ", not " + round);
        }
    }

    private static void post(QueuePair qp, SendWr wr) {
        int rc = qp.postSend(wr);
        if (rc != PostStatus.OK) {
            throw new IllegalStateException("posting failed: " + PostStatus.toString(rc));
        }
    }

    /** Runs {@code device}'s duty cycles until {@code at} holds {@code value}. */
    private static void await(RdmaDevice device, MemorySegment in, int at, byte value) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (in.get(ValueLayout.JAVA_BYTE, at) != value) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("the WRITE was not placed within " + WAIT);
            }
            device.invoke();
        }
    }

    /** The next event of {@code events}, which must be a {@code kind}, running both devices' duty cycles meanwhile. */
    private static CmEvent expect(CmEventQueue events, Class<? extends CmEvent> kind, RdmaDevice a, RdmaDevice b) {
        long deadline = System.nanoTime() + WAIT.toNanos();
        CmEvent e;
        while ((e = events.poll()) == null && System.nanoTime() - deadline < 0) {
            a.invoke();
            b.invoke();
        }
        if (!kind.isInstance(e)) {
            throw new IllegalStateException("expected " + kind.getSimpleName() + ", got " + e);
        }
        return e;
    }
}
