package org.jwarp.bench.loopback;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.List;
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
import org.jwarp.verbs.CounterNames;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.wire.ddp.DdpHeader;
import org.jwarp.wire.fpdu.FpduEncoder;
import org.jwarp.wire.mpa.MpaPolicy;
import org.jwarp.wire.rdmap.RdmapOpcode;

/**
 * The receive path alone, by segment size: a plain blocking socket (CPU 0) replays 1 MiB RDMA
 * WRITE messages, framed once into FPDUs of a chosen payload size with CRC, into a jwarp device
 * with one dedicated engine thread on CPU 1 that sleeps in its selector when there is nothing to
 * read. The figure is the engine thread's CPU time per byte received — thread CPU time does not
 * count the time other processes take the CPU, so it holds up on a busy machine where throughput
 * does not — for staging every segment ({@code JwarpConfig.rxDirectFrom} {@code NEVER_DIRECT}) against reading every
 * segment's payload straight into the region (from 1 byte), alternating within each repeat. This
 * is how the zero-copy threshold was chosen; the segment size is set here by framing, with no MTU
 * change.
 *
 * <pre>java -cp bench/target/jwarp-jmh.jar org.jwarp.bench.loopback.RxPathBench [repeats] [seconds] [segment sizes...]</pre>
 */
public final class RxPathBench {

    private static final int MESSAGE = 1 << 20;

    private RxPathBench() {
    }

    public static void main(String[] args) throws Exception {
        int repeats = BenchArgs.repeats(args, 5);
        double seconds = BenchArgs.seconds(args, 2);
        List<Integer> sizes = BenchArgs.sizes(args, List.of(4096, 8192, 16384, 32768, 65000));
        run("1", 65000, 1);
        run("off", 65000, 1);
        System.out.println("receiver engine thread: ns of CPU per KiB received (lower is better); Gb/s in brackets");
        double[][] on = new double[sizes.size()][repeats];
        double[][] off = new double[sizes.size()][repeats];
        double[] nio = new double[repeats];
        nioStream(1);
        for (int r = 0; r < repeats; r++) {
            ResultRow n = nioStream(seconds);
            nio[r] = LoopbackRun.appCpuNanosPerKiB(n, true);
            System.out.printf("run %d, NIO stream of 64 KiB messages: receiving thread %.0f ns/KiB (%.1f Gb/s)%n", r + 1,
                    nio[r], LoopbackRun.gbps(n));
            for (int s = 0; s < sizes.size(); s++) {
                int size = sizes.get(s);
                if ((r + s) % 2 == 0) {
                    on[s][r] = run("1", size, seconds);
                    off[s][r] = run("off", size, seconds);
                } else {
                    off[s][r] = run("off", size, seconds);
                    on[s][r] = run("1", size, seconds);
                }
                System.out.printf("run %d, segments of %6d B: staging %.0f ns/KiB (%.1f Gb/s), direct %.0f ns/KiB"
                                + " (%.1f Gb/s): %.2f%n", r + 1, size, off[s][r], lastGbps[0], on[s][r], lastGbps[1],
                        on[s][r] / off[s][r]);
            }
        }
        summary("segment", "ns/KiB", 0, sizes, off, on);
        System.out.printf("NIO receiving thread (64 KiB reads, no CRC): %.0f ns/KiB%n", LoopbackRun.Spread.of(nio).median());
    }

    /** Gb/s of the last two runs (staging, direct), for the progress lines. */
    private static final double[] lastGbps = new double[2];

    /** One run: the engine thread's CPU ns per KiB of payload placed. */
    static double run(String directFrom, int segment, double seconds) throws Exception {
        DeviceConfig config = DeviceConfig.builder().provider(JwarpConfig.builder()
                .threadingMode(JwarpConfig.ThreadingMode.DEDICATED).engineThreads(1)
                .idleStrategy(JwarpConfig.IdleStrategyKind.BACKOFF).cpuList(List.of(1))
                .rxDirectFrom(directFrom(directFrom)).build()).build();
        try (RdmaDevice dev = RdmaDevice.open(config); Arena arena = Arena.ofShared()) {
            ProtectionDomain pd = dev.allocPd();
            CompletionQueue cq = dev.createCq(16, null);
            QueuePair qp = dev.createQp(pd, QpInitAttr.builder(cq, cq).build());
            MemoryRegion dst = pd.registerMemory(arena.allocate(MESSAGE, 4096), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
            CmEventQueue events = new CmEventQueue();
            Listener listener = dev.connectionManager().listen(
                    new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 1, events);
            ThreadAffinity.pinCurrentThread(0);
            long payload = 0;
            long t0;
            long t1;
            long cpu0;
            long cpu1;
            try (SocketChannel ch = SocketChannel.open(listener.localAddress())) {
                ch.setOption(java.net.StandardSocketOptions.TCP_NODELAY, true);
                MpaPolicy policy = MpaPolicy.defaults().withCrc(MpaPolicy.CrcPolicy.REQUIRED)
                        .withRtr(false, java.util.EnumSet.of(org.jwarp.wire.mpa.RtrType.WRITE));
                MpaHandshake hs = MpaHandshake.initiator(policy, new byte[0], System.nanoTime(), Duration.ofSeconds(10));
                ch.write(ByteBuffer.wrap(hs.output()));
                hs.outputWritten();
                events.expect(CmEvent.ConnectRequest.class, Duration.ofSeconds(10)).request().accept(qp, new byte[0]);
                ByteBuffer in = ByteBuffer.allocateDirect(4096);
                MemorySegment inSegment = MemorySegment.ofBuffer(in);
                while (hs.phase() != MpaHandshake.Phase.ESTABLISHED) {
                    if (hs.phase() == MpaHandshake.Phase.FAILED || hs.phase() == MpaHandshake.Phase.REJECTED) {
                        throw new IllegalStateException("MPA setup failed: " + hs.failure());
                    }
                    in.clear();
                    int n = ch.read(in);
                    if (n < 0) {
                        throw new IllegalStateException("the device closed the connection during MPA setup");
                    }
                    hs.onBytes(inSegment, 0, n, System.nanoTime());
                }
                ByteBuffer wire = frame(segment, dst.rkey(), dst.iova(), hs.parameters().crc(), arena);
                long fpdus0 = qp.counters().get(CounterNames.FPDUS_RX);
                cpu0 = CpuTime.threadsNamed("jwarp-engine");
                long end = System.nanoTime() + (long) (seconds * 1e9);
                t0 = System.nanoTime();
                while (System.nanoTime() < end) {
                    wire.clear();
                    while (wire.hasRemaining()) {
                        ch.write(wire);
                    }
                    payload += MESSAGE;
                }
                // done when the device has decoded every FPDU sent
                long target = fpdus0 + payload / MESSAGE * segmentsOf(segment);
                long giveUp = System.nanoTime() + 30_000_000_000L;
                while (qp.counters().get(CounterNames.FPDUS_RX) < target) {
                    if (System.nanoTime() - giveUp > 0) {
                        throw new IllegalStateException("the device stopped receiving: " + qp + " " + qp.counters());
                    }
                    Thread.onSpinWait();
                }
                t1 = System.nanoTime();
                cpu1 = CpuTime.threadsNamed("jwarp-engine");
            }
            if (qp.counters().get(CounterNames.CRC_ERRORS) != 0) {
                throw new IllegalStateException("CRC errors: " + qp.counters());
            }
            listener.close();
            qp.close();
            lastGbps[directFrom.equals("off") ? 0 : 1] = payload * 8e9 / (t1 - t0) / 1e9;
            return (cpu1 - cpu0) * 1024.0 / payload;
        }
    }

    /** The engine's direct-placement threshold for "off" (always staged) or a byte count. */
    static long directFrom(String directFrom) {
        return directFrom.equals("off") ? JwarpConfig.NEVER_DIRECT : Long.parseLong(directFrom);
    }

    private static long segmentsOf(int segment) {
        return (MESSAGE + segment - 1) / segment;
    }

    /** One 1 MiB RDMA WRITE to (stag, to) in FPDUs of {@code segment} payload bytes. */
    private static ByteBuffer frame(int segment, int stag, long to, boolean crc, Arena arena) {
        MemorySegment data = arena.allocate(MESSAGE);
        for (long i = 0; i < MESSAGE; i++) {
            data.set(java.lang.foreign.ValueLayout.JAVA_BYTE, i, (byte) (i * 7));
        }
        FpduEncoder enc = new FpduEncoder().start(crc, false, 0);
        MemorySegment header = MemorySegment.ofArray(new byte[DdpHeader.TAGGED_LENGTH]);
        long total = 0;
        for (long off = 0; off < MESSAGE; off += segment) {
            total += enc.encodedLength(DdpHeader.TAGGED_LENGTH + (int) Math.min(segment, MESSAGE - off));
        }
        ByteBuffer out = ByteBuffer.allocateDirect((int) total);
        MemorySegment o = MemorySegment.ofBuffer(out);
        long at = 0;
        for (long off = 0; off < MESSAGE; off += segment) {
            int n = (int) Math.min(segment, MESSAGE - off);
            DdpHeader.writeTagged(header, 0, off + n == MESSAGE, RdmapOpcode.RDMA_WRITE, stag, to + off);
            at += enc.encode(o, at, header, 0, DdpHeader.TAGGED_LENGTH, data, off, n);
        }
        return out;
    }

    /**
     * The table of a staging-against-direct comparison: per size, the median of each path's
     * figure ({@code unit}), the median of the per-repeat ratios direct/staging and their range.
     */
    static void summary(String sizeLabel, String unit, int decimals, List<Integer> sizes, double[][] off, double[][] on) {
        System.out.println();
        System.out.printf("%-14s %16s %16s %16s %14s%n", sizeLabel, "staging " + unit, "direct " + unit,
                "direct/staging", "ratio range");
        for (int s = 0; s < sizes.size(); s++) {
            double[] ratios = new double[off[s].length];
            for (int r = 0; r < ratios.length; r++) {
                ratios[r] = on[s][r] / off[s][r];
            }
            LoopbackRun.Spread all = LoopbackRun.Spread.of(ratios);
            double lo = java.util.Arrays.stream(ratios).min().orElse(0);
            double hi = java.util.Arrays.stream(ratios).max().orElse(0);
            String f = "%16." + decimals + "f";
            System.out.printf("%-14d " + f + " " + f + " %16.2f %8.2f-%.2f%n", sizes.get(s),
                    LoopbackRun.Spread.of(off[s]).median(), LoopbackRun.Spread.of(on[s]).median(), all.median(), lo, hi);
        }
    }

    /** The baseline: the perf workload's NIO stream of 64 KiB messages (client on CPU 0, server on CPU 1). */
    private static ResultRow nioStream(double seconds) {
        return LoopbackRun.run(TestKind.WRITE_BW, TransportKind.SOCKETS_NIO, 65536, 0, (long) (seconds * 1000),
                new JwarpOptions(DeviceConfig.builder().build(), List.of(), false, false),
                Placement.of(List.of(0, 1), true, 0));
    }
}
