package org.jwarp.bench.loopback;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.jwarp.bench.perf.ResultRow;
import org.jwarp.bench.perf.TestKind;
import org.jwarp.bench.perf.TransportKind;
import org.jwarp.bench.run.LoopbackRun;
import org.jwarp.bench.run.Placement;
import org.jwarp.bench.transport.jwarp.JwarpOptions;
import org.jwarp.engine.affinity.ThreadAffinity;
import org.jwarp.engine.provider.JwarpConfig;
import org.jwarp.stack.MpaHandshake;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.DeviceConfig;
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
import org.jwarp.wire.mpa.MpaPolicy;

/**
 * The transmit path alone: a jwarp device with one dedicated engine thread (CPU 0) streams
 * 64 KiB RDMA WRITEs, CRC on, to a plain socket on CPU 1 that completes the MPA handshake and
 * then only reads and discards. The figure is the engine thread's CPU time per KiB sent — thread
 * CPU time leaves out the time other processes take, so it holds up on a busy machine — against
 * the sending thread of a plain NIO stream of the same message size, measured alternately.
 *
 * <pre>java -cp bench/target/jwarp-jmh.jar org.jwarp.bench.loopback.TxPathBench [repeats] [seconds] [size]</pre>
 */
public final class TxPathBench {

    private TxPathBench() {
    }

    public static void main(String[] args) throws Exception {
        int repeats = args.length > 0 ? Integer.parseInt(args[0]) : 5;
        double seconds = args.length > 1 ? Double.parseDouble(args[1]) : 2;
        int size = args.length > 2 ? Integer.parseInt(args[2]) : 65536;
        run(size, 1);
        nioSender(size, 1);
        double[] ns = new double[repeats];
        double[] nio = new double[repeats];
        for (int r = 0; r < repeats; r++) {
            double[] x = run(size, seconds);
            double[] n = nioSender(size, seconds);
            ns[r] = x[0];
            nio[r] = n[0];
            System.out.printf("run %d: jwarp engine thread %.0f ns/KiB (%.1f Gb/s), NIO sender %.0f ns/KiB (%.1f Gb/s)%n",
                    r + 1, x[0], x[1], nio[r], n[1]);
        }
        System.out.printf("sending %d B messages, CPU per KiB: jwarp engine thread %s ns, NIO sending thread %s ns%n",
                size, med(ns), med(nio));
    }

    private static String med(double[] xs) {
        double[] s = xs.clone();
        java.util.Arrays.sort(s);
        return String.format("%.0f [%.0f-%.0f]", s[s.length / 2], s[0], s[s.length - 1]);
    }

    /**
     * The baseline: the sending thread of the perf workload's NIO stream (sockets-nio WRITE
     * bandwidth, client on CPU 0, server on CPU 1). {ns of its CPU per KiB, Gb/s}.
     */
    static double[] nioSender(int size, double seconds) {
        ResultRow row = LoopbackRun.run(TestKind.WRITE_BW, TransportKind.SOCKETS_NIO, size, 0, (long) (seconds * 1000),
                new JwarpOptions(DeviceConfig.builder().build(), List.of(), false, false),
                Placement.of(List.of(0, 1), true, 0));
        return new double[] {LoopbackRun.appCpuNanosPerKiB(row, false), LoopbackRun.gbps(row)};
    }

    /** {ns of engine CPU per KiB, Gb/s}. */
    static double[] run(int size, double seconds) throws Exception {
        DeviceConfig config = DeviceConfig.builder().provider(JwarpConfig.builder()
                .threadingMode(JwarpConfig.ThreadingMode.DEDICATED).engineThreads(1)
                .idleStrategy(JwarpConfig.IdleStrategyKind.BACKOFF).cpuList(List.of(0)).build()).build();
        try (ServerSocketChannel ss = ServerSocketChannel.open();
             RdmaDevice dev = RdmaDevice.open(config);
             Arena arena = Arena.ofShared()) {
            ss.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0));
            AtomicBoolean stop = new AtomicBoolean();
            AtomicLong received = new AtomicLong();
            Thread sink = Thread.ofPlatform().name("bench-sink").start(() -> {
                ThreadAffinity.pinCurrentThread(1);
                try (SocketChannel ch = ss.accept()) {
                    MpaPolicy policy = MpaPolicy.defaults().withCrc(MpaPolicy.CrcPolicy.REQUIRED)
                            .withRtr(false, java.util.EnumSet.of(org.jwarp.wire.mpa.RtrType.WRITE));
                    MpaHandshake hs = MpaHandshake.responder(policy, System.nanoTime(), Duration.ofSeconds(10),
                            Duration.ofSeconds(10));
                    ByteBuffer in = ByteBuffer.allocateDirect(1 << 20);
                    MemorySegment inSegment = MemorySegment.ofBuffer(in);
                    while (hs.phase() != MpaHandshake.Phase.AWAIT_DECISION) {
                        int n = ch.read(in.clear());
                        if (n < 0) {
                            return;
                        }
                        hs.onBytes(inSegment, 0, n, System.nanoTime());
                    }
                    hs.accept(new byte[0]);
                    ch.write(ByteBuffer.wrap(hs.output()));
                    hs.outputWritten();
                    long n;
                    while (!stop.get() && (n = ch.read(in.clear())) >= 0) {
                        received.addAndGet(n);
                    }
                } catch (java.io.IOException e) {
                    if (!stop.get()) {
                        throw new IllegalStateException(e);
                    }
                }
            });
            ProtectionDomain pd = dev.allocPd();
            CompletionQueue cq = dev.createCq(256, null);
            QueuePair qp = dev.createQp(pd, QpInitAttr.builder(cq, cq).maxSendWr(128).build());
            CmEventQueue events = new CmEventQueue();
            dev.connectionManager().connect((InetSocketAddress) ss.getLocalAddress(), qp, ConnectParams.of(new byte[0]),
                    events);
            events.expect(CmEvent.Established.class, Duration.ofSeconds(10));
            MemoryRegion src = pd.registerMemory(arena.allocate(size, 4096), Access.LOCAL_WRITE);
            SendWr[] batch = new SendWr[16];
            for (int i = 0; i < batch.length; i++) {
                // the sink does not check placement: any STag will do
                batch[i] = new SendWr().wrId(i).opcode(WrOpcode.RDMA_WRITE).signaled(i == batch.length - 1)
                        .addSge(src, 0, size).remote(0x1000, 0x100);
            }
            WorkCompletion[] wcs = {new WorkCompletion(), new WorkCompletion(), new WorkCompletion(), new WorkCompletion()};
            ThreadAffinity.pinCurrentThread(1);
            long cpu0 = CpuTime.threadsNamed("jwarp-engine");
            long r0 = received.get();
            long t0 = System.nanoTime();
            long end = t0 + (long) (seconds * 1e9);
            long posted = 0;
            long done = 0;
            while (System.nanoTime() < end || done < posted) {
                if (System.nanoTime() < end && posted - done < 8) {
                    int rc = qp.postSend(batch, batch.length);
                    if (rc == PostStatus.OK) {
                        posted++;
                    }
                }
                int n = cq.poll(wcs);
                for (int i = 0; i < n; i++) {
                    if (wcs[i].status() != WcStatus.SUCCESS) {
                        throw new IllegalStateException("write failed: " + wcs[i]);
                    }
                }
                done += n;
                if (n == 0) {
                    Thread.yield(); // the sink shares this CPU
                }
            }
            long t1 = System.nanoTime();
            long cpu = CpuTime.threadsNamed("jwarp-engine") - cpu0;
            long bytes = received.get() - r0;
            stop.set(true);
            qp.close();
            dev.close();
            sink.join();
            return new double[] {cpu * 1024.0 / bytes, bytes * 8e9 / (t1 - t0) / 1e9};
        }
    }
}
