package org.jwarp.bench.loopback;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jwarp.engine.affinity.ThreadAffinity;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WcStatus;
import org.jwarp.verbs.WorkCompletion;
import org.jwarp.verbs.WrOpcode;

/**
 * jwarp on loopback: two devices in one process joined by a real TCP connection (one process so
 * that one command gives a result, and the two ends' CPU time can be read from one place).
 */
final class JwarpLoopback implements AutoCloseable {

    static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    static final int DEPTH = 128;

    final RdmaDevice clientDev;
    final RdmaDevice serverDev;
    final QueuePair client;
    final QueuePair server;
    final CompletionQueue clientCq;
    final CompletionQueue serverCq;
    final ProtectionDomain clientPd;
    final ProtectionDomain serverPd;
    /**
     * One arena per side, as two processes would have: socket calls on a region acquire its
     * arena's session with an atomic, and a shared one would bounce that line between the CPUs.
     */
    final Arena clientArena = Arena.ofShared();
    final Arena serverArena = Arena.ofShared();
    private final Listener listener;

    JwarpLoopback(DeviceConfig config) throws InterruptedException {
        clientDev = RdmaDevice.open(config);
        serverDev = RdmaDevice.open(config);
        clientPd = clientDev.allocPd();
        serverPd = serverDev.allocPd();
        clientCq = clientDev.createCq(4 * DEPTH, null);
        serverCq = serverDev.createCq(4 * DEPTH, null);
        client = clientDev.createQp(clientPd, QpInitAttr.builder(clientCq, clientCq).maxSendWr(DEPTH).maxRecvWr(DEPTH)
                .maxInlineData(64).build());
        server = serverDev.createQp(serverPd, QpInitAttr.builder(serverCq, serverCq).maxSendWr(DEPTH).maxRecvWr(DEPTH)
                .maxInlineData(64).build());
        CmEventQueue se = new CmEventQueue();
        CmEventQueue ce = new CmEventQueue();
        listener = serverDev.connectionManager().listen(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 4, se);
        clientDev.connectionManager().connect(listener.localAddress(), client, ConnectParams.of(new byte[0]), ce);
        expect(se, CmEvent.ConnectRequest.class).request().accept(server, new byte[0]);
        expect(ce, CmEvent.Established.class);
        expect(se, CmEvent.Established.class);
    }

    private <T extends CmEvent> T expect(CmEventQueue q, Class<T> type) throws InterruptedException {
        long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
        while (System.nanoTime() < deadline) {
            CmEvent e = q.poll();
            if (e != null) {
                if (!type.isInstance(e)) {
                    throw new IllegalStateException("connection setup failed: " + e);
                }
                return type.cast(e);
            }
            clientDev.invoke();
            serverDev.invoke();
            Thread.onSpinWait();
        }
        throw new IllegalStateException("no " + type.getSimpleName() + " in 20 s");
    }

    /**
     * Streams {@code size}-byte RDMA WRITEs for {@code seconds} with up to {@link #DEPTH} in
     * flight, one signaled completion per 16. In invoker mode a server-side thread runs the
     * server device's duty cycle (one spinning thread per side, like the NIO baseline).
     */
    Result writeBandwidth(int size, double seconds, int clientCpu, int serverCpu) throws Exception {
        MemoryRegion src = clientPd.registerMemory(clientArena.allocate(size, 4096), Access.LOCAL_WRITE);
        MemoryRegion dst = serverPd.registerMemory(serverArena.allocate(size, 4096),
                Access.LOCAL_WRITE | Access.REMOTE_WRITE | Access.REMOTE_READ);
        final int signalEvery = 16;
        SendWr[] batch = new SendWr[signalEvery];
        for (int i = 0; i < signalEvery; i++) {
            batch[i] = new SendWr().wrId(i).opcode(WrOpcode.RDMA_WRITE).signaled(i == signalEvery - 1)
                    .addSge(src, 0, size).remote(dst.iova(), dst.rkey());
        }
        AtomicBoolean stop = new AtomicBoolean();
        long[] serverCpuNs = new long[1];
        Thread serverThread = null;
        if (serverDev.config().threadingMode() == DeviceConfig.ThreadingMode.INVOKER) {
            serverThread = Thread.ofPlatform().name("bench-server").start(() -> {
                ThreadAffinity.pinCurrentThread(serverCpu);
                long c0 = CpuTime.thread();
                while (!stop.get()) {
                    if (serverDev.invoke() == 0) {
                        Thread.onSpinWait();
                    }
                }
                serverCpuNs[0] = CpuTime.thread() - c0;
            });
        }
        ThreadAffinity.pinCurrentThread(clientCpu);
        WorkCompletion[] wcs = new WorkCompletion[16];
        for (int i = 0; i < wcs.length; i++) {
            wcs[i] = new WorkCompletion();
        }
        long engineCpu0 = CpuTime.threadsNamed("jwarp-engine");
        long c0 = CpuTime.thread();
        long t0 = System.nanoTime();
        long end = t0 + (long) (seconds * 1e9);
        long batchesPosted = 0;
        long batchesDone = 0;
        while (true) {
            boolean running = System.nanoTime() < end;
            if (running && batchesPosted - batchesDone < DEPTH / signalEvery) {
                int rc = client.postSend(batch, signalEvery);
                if (rc == PostStatus.OK) {
                    batchesPosted++;
                } else if (PostStatus.code(rc) != PostStatus.QUEUE_FULL) {
                    throw new IllegalStateException("post failed: " + PostStatus.toString(rc));
                }
            }
            int n = clientCq.poll(wcs);
            for (int i = 0; i < n; i++) {
                if (wcs[i].status() != WcStatus.SUCCESS) {
                    throw new IllegalStateException("write failed: " + wcs[i]);
                }
            }
            batchesDone += n;
            if (!running && batchesDone == batchesPosted) {
                break;
            }
        }
        long t1 = System.nanoTime();
        long clientCpuNs = CpuTime.thread() - c0;
        long engineCpu = CpuTime.threadsNamed("jwarp-engine") - engineCpu0;
        // A Write completes when handed to TCP, not when placed (RFC 5040 §5.5): a Read of the target
        // returns only after every earlier Write was placed, so only then may the target go away.
        client.postSend(new SendWr().wrId(-1).opcode(WrOpcode.RDMA_READ).signaled(true).addSge(src, 0, 1)
                .remote(dst.iova(), dst.rkey()));
        while (clientCq.poll(wcs, 1) == 0) {
            Thread.onSpinWait();
        }
        if (wcs[0].status() != WcStatus.SUCCESS) {
            throw new IllegalStateException("closing read failed: " + wcs[0]);
        }
        stop.set(true);
        if (serverThread != null) {
            serverThread.join();
        }
        src.deregister();
        dst.deregister();
        long bytes = batchesDone * signalEvery * (long) size;
        // sender and receiver CPU: the application threads plus every engine thread (both sides)
        return new Result(bytes * 8e9 / (t1 - t0), clientCpuNs + engineCpu / 2, serverCpuNs[0] + engineCpu / 2, t1 - t0);
    }

    /**
     * perftest's write_lat: the client WRITEs {@code size} bytes into the server's buffer; the
     * server polls the buffer's last 8 bytes for the iteration number and WRITEs back; the client
     * polls likewise. Returns {min, median, p99, max} one-way latency in µs (half round trip).
     */
    double[] writeLatency(int size, int iterations, int clientCpu, int serverCpu) throws Exception {
        if (client.state() != org.jwarp.verbs.QpState.RTS || server.state() != org.jwarp.verbs.QpState.RTS) {
            throw new IllegalStateException("the connection is down: " + client + ", " + server);
        }
        int n = Math.max(size, 8);
        MemoryRegion cbuf = clientPd.registerMemory(clientArena.allocate(n, 64), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
        MemoryRegion sbuf = serverPd.registerMemory(serverArena.allocate(n, 64), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
        int total = iterations + iterations / 10;
        boolean invoker = clientDev.config().threadingMode() == DeviceConfig.ThreadingMode.INVOKER;
        Thread echo = Thread.ofPlatform().name("bench-server").start(() -> {
            ThreadAffinity.pinCurrentThread(serverCpu);
            pingPong(server, serverDev, serverCq, sbuf, cbuf, n, total, false, invoker, null);
        });
        ThreadAffinity.pinCurrentThread(clientCpu);
        long[] rtt = new long[total];
        pingPong(client, clientDev, clientCq, cbuf, sbuf, n, total, true, invoker, rtt);
        echo.join();
        cbuf.deregister();
        sbuf.deregister();
        long[] measured = new long[iterations];
        System.arraycopy(rtt, total - iterations, measured, 0, iterations);
        return Stats.halfRttMicros(measured);
    }

    private static void pingPong(QueuePair qp, RdmaDevice dev, CompletionQueue cq, MemoryRegion local,
                                 MemoryRegion remote, int size, int total, boolean initiator, boolean invoker,
                                 long[] rtt) {
        MemorySegment mine = local.segment();
        MemorySegment out = Arena.ofAuto().allocate(size, 64);
        SendWr wr = new SendWr().opcode(WrOpcode.RDMA_WRITE).flags(org.jwarp.verbs.SendFlags.INLINE)
                .addInlineSge(out, 0, size).remote(remote.iova(), remote.rkey());
        WorkCompletion[] wcs = {new WorkCompletion(), new WorkCompletion(), new WorkCompletion(), new WorkCompletion()};
        long last = size - 8;
        for (long i = 1; i <= total; i++) {
            long t0 = System.nanoTime();
            if (initiator) {
                send(qp, dev, cq, wr, out, last, i, wcs);
            }
            long stuckAt = System.nanoTime() + 5_000_000_000L;
            while ((long) LONG.getAcquire(mine, last) != i) {
                if (System.nanoTime() - stuckAt > 0) {
                    throw new IllegalStateException((initiator ? "client" : "server") + " waited 5 s for " + i
                            + ", memory holds " + (long) LONG.getAcquire(mine, last) + "; " + qp + " "
                            + qp.counters().snapshot());
                }
                if (invoker) {
                    dev.invoke();
                    Thread.onSpinWait();
                } else {
                    // dedicated mode: the engine threads need the CPUs this thread would spin on
                    Thread.yield();
                }
            }
            if (!initiator) {
                send(qp, dev, cq, wr, out, last, i, wcs);
            } else {
                rtt[(int) (i - 1)] = System.nanoTime() - t0;
            }
        }
        // let the last write leave before the ends go away
        for (int k = 0; k < 1000 && invoker; k++) {
            dev.invoke();
        }
    }

    private static void send(QueuePair qp, RdmaDevice dev, CompletionQueue cq, SendWr wr, MemorySegment out, long last,
                             long value, WorkCompletion[] wcs) {
        out.set(ValueLayout.JAVA_LONG_UNALIGNED, last, value);
        // a signaled write every 64 keeps the send queue from filling with unacknowledged slots
        wr.wrId(value).signaled(value % 64 == 0);
        long giveUp = System.nanoTime() + 5_000_000_000L;
        int rc;
        while ((rc = qp.postSend(wr)) != PostStatus.OK) {
            int n = cq.poll(wcs);
            for (int i = 0; i < n; i++) {
                if (wcs[i].status() != WcStatus.SUCCESS) {
                    throw new IllegalStateException("write failed: " + wcs[i]);
                }
            }
            dev.invoke();
            if (System.nanoTime() - giveUp > 0) {
                throw new IllegalStateException("post refused for 5 s: " + PostStatus.toString(rc) + " on " + qp
                        + " " + qp.counters().snapshot());
            }
        }
        cq.poll(wcs);
    }

    @Override
    public void close() {
        listener.close();
        client.close();
        server.close();
        clientDev.close();
        serverDev.close();
        clientArena.close();
        serverArena.close();
    }
}
