package org.jwarp.bench.experiment;

import java.lang.foreign.Arena;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.jwarp.engine.counters.EngineCounters;
import org.jwarp.engine.provider.JwarpConfig;
import org.jwarp.engine.rss.RssConfig;
import org.jwarp.bench.transport.jwarp.CmSetup;
import org.jwarp.verbs.AcceptParams;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.CompletionChannel;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.CounterNames;
import org.jwarp.verbs.Counters;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.Listener;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.Moderation;
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
 * Seed 004's measurement: N connections streaming RDMA WRITEs into one receiving device whose E
 * engine threads share them by RSS, round robin or all on one, with completion events moderated or
 * not. Per point: aggregate throughput, the receiving engine threads' wake-ups per second and FPDUs
 * per wake-up, and their CPU time per KiB received. Both devices run in this process over
 * loopback, so on a machine with few CPUs the figures show the mechanism (wake-ups, batching,
 * which threads work), not scaling.
 */
public final class RssExperiment {

    /** WRITEs in flight per connection. */
    static final int DEPTH = 4;
    /** The moderation of the moderated points: one event per 16 completions or 100 µs. */
    static final Moderation MODERATED = Moderation.of(16, 100);

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    /** An engine thread's parks: each ends in a wake-up (by data, a doorbell or a timer). */
    private static final String IDLE_PARKS = EngineCounters.IDLE_PARKS;

    private RssExperiment() {
    }

    /** What runs: every combination (steering other than RSS only with several engine threads). */
    public record Plan(List<Integer> connections, List<Integer> engines, List<RssConfig.Steering> steerings,
                       List<Boolean> moderated, double seconds, int size) {

        /** Under two minutes here. */
        public static Plan quick() {
            return new Plan(List.of(1, 8, 32), List.of(1, 2), List.of(RssConfig.Steering.values()), List.of(false, true),
                    0.5, 16384);
        }

        /** Up to 1,000 connections and as many engine threads as CPUs (at least 2). */
        public static Plan full() {
            int cpus = Math.max(2, Runtime.getRuntime().availableProcessors());
            List<Integer> engines = new ArrayList<>();
            for (int e = 1; e <= cpus; e *= 2) {
                engines.add(e);
            }
            return new Plan(List.of(1, 4, 16, 64, 256, 1000), engines, List.of(RssConfig.Steering.values()),
                    List.of(false, true), 2, 16384);
        }

        /** The points, in run order. */
        public List<Point> points() {
            List<Point> out = new ArrayList<>();
            for (int e : engines) {
                for (RssConfig.Steering s : steerings) {
                    if (e == 1 && s != RssConfig.Steering.RSS) {
                        continue;           // one engine thread: every steering is the same
                    }
                    for (boolean m : moderated) {
                        for (int n : connections) {
                            out.add(new Point(e, s, m, n));
                        }
                    }
                }
            }
            return out;
        }
    }

    /** One configuration. */
    public record Point(int engines, RssConfig.Steering steering, boolean moderated, int connections) {
    }

    /**
     * What a point measured (the receiving device).
     *
     * @param gbps            aggregate WRITE throughput
     * @param wakeupsPerSecond the receiving engine threads' wake-ups from a park, per second
     * @param fpdusPerWakeup  FPDUs those threads received per wake-up (∞ shown as the FPDU count when none slept)
     * @param cpuNsPerKiB     their CPU time per KiB received
     * @param enginesUsed     how many of them carried a connection
     */
    public record Result(Point point, double seconds, long bytes, double gbps, double wakeupsPerSecond,
                         double fpdusPerWakeup, double cpuNsPerKiB, int enginesUsed) {
    }

    /** Runs every point of {@code plan}, reporting each result as it comes. */
    public static List<Result> run(Plan plan, Consumer<Result> progress) throws InterruptedException {
        List<Result> out = new ArrayList<>();
        for (Point p : plan.points()) {
            Result r = run(p, plan.seconds(), plan.size());
            progress.accept(r);
            out.add(r);
        }
        return out;
    }

    /** One point: two devices over loopback, {@code connections} WRITE streams for {@code seconds}. */
    public static Result run(Point p, double seconds, int size) throws InterruptedException {
        DeviceConfig config = DeviceConfig.builder().provider(JwarpConfig.builder()
                .threadingMode(JwarpConfig.ThreadingMode.DEDICATED).engineThreads(p.engines()).rss(RssConfig.DEFAULT
                .withSteering(p.steering())).build()).build();
        CmSetup.OpenDevice opened = CmSetup.open(config);
        // the memory outlives both devices: a WRITE completes when TCP took it, before the peer placed it
        try (Arena arena = Arena.ofShared(); RdmaDevice server = opened.device()) {
            try (RdmaDevice client = CmSetup.open(config).device()) {
                return stream(p, seconds, size, server, client, opened.engineThreads(), arena);
            }
        }
    }

    private static Result stream(Point p, double seconds, int size, RdmaDevice server, RdmaDevice client,
                                 List<Thread> serverEngines, Arena arena) throws InterruptedException {
        Duration wait = Duration.ofSeconds(30);
        CmEventQueue serverEvents = new CmEventQueue();
        CmEventQueue clientEvents = new CmEventQueue();
        Listener listener = CmSetup.listen(server, new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                Math.max(8, p.connections()), serverEvents);
        ProtectionDomain spd = server.allocPd();
        ProtectionDomain cpd = client.allocPd();
        CompletionQueue scq = server.createCq(16, null);
        CompletionChannel channel = client.createCompletionChannel(p.moderated() ? MODERATED : Moderation.NONE);
        CompletionQueue ccq = client.createCq(p.connections() * DEPTH + 16, channel);
        MemoryRegion target = spd.registerMemory(arena.allocate(size, 4096), Access.LOCAL_WRITE | Access.REMOTE_WRITE);
        MemoryRegion source = cpd.registerMemory(arena.allocate(size, 4096), Access.LOCAL_WRITE);
        QpInitAttr sattr = QpInitAttr.builder(scq, scq).maxSendWr(4).maxRecvWr(4).build();
        QpInitAttr cattr = QpInitAttr.builder(ccq, ccq).maxSendWr(DEPTH + 4).maxRecvWr(4).build();
        List<QueuePair> cqps = new ArrayList<>();
        List<QueuePair> sqps = new ArrayList<>();
        try {
            for (int i = 0; i < p.connections(); i++) {
                QueuePair c = client.createQp(cpd, cattr);
                QueuePair s = server.createQp(spd, sattr);
                cqps.add(c);
                sqps.add(s);
                // one thread sets up both ends: the client's connect goes out, the server accepts, then both are up
                client.connectionManager().connect(listener.localAddress(), c, ConnectParams.of(new byte[0]), clientEvents);
                CmSetup.accept(CmSetup.awaitRequest(serverEvents, server, wait, "the client device"), s,
                        AcceptParams.of(new byte[0]), serverEvents, server, wait);
                if (!(CmSetup.await(clientEvents, client, wait, "the server device") instanceof CmEvent.Established)) {
                    throw new IllegalStateException("connection " + i + " did not come up on the client device");
                }
            }
            SendWr wr = new SendWr().opcode(WrOpcode.RDMA_WRITE).signaled(true).addSge(source, 0, size)
                    .remote(target.iova(), target.rkey());
            WorkCompletion[] wcs = new WorkCompletion[64];
            for (int i = 0; i < wcs.length; i++) {
                wcs[i] = new WorkCompletion();
            }
            long[] inFlight = new long[p.connections()];
            Counters[] engines = server.engineCounters().toArray(new Counters[0]);
            long wake0 = sum(engines, IDLE_PARKS);
            long fpdus0 = sum(engines, CounterNames.FPDUS_RX);
            long cpu0 = cpu(serverEngines);
            long bytes = 0;
            long t0 = System.nanoTime();
            long end = t0 + (long) (seconds * 1e9);
            boolean posting = true;
            long outstanding = 0;
            while (posting || outstanding > 0) {
                posting = System.nanoTime() < end;
                if (posting) {
                    for (int i = 0; i < cqps.size(); i++) {
                        while (inFlight[i] < DEPTH && cqps.get(i).postSend(wr.wrId(i)) == PostStatus.OK) {
                            inFlight[i]++;
                            outstanding++;
                        }
                    }
                }
                int n = ccq.poll(wcs);
                if (n == 0 && p.moderated()) {
                    ccq.requestNotify(false);
                    n = ccq.poll(wcs);
                    if (n == 0) {
                        channel.await(10, TimeUnit.MILLISECONDS);
                        continue;
                    }
                }
                for (int k = 0; k < n; k++) {
                    if (wcs[k].status() != WcStatus.SUCCESS) {
                        throw new IllegalStateException("a WRITE failed: " + wcs[k]);
                    }
                    inFlight[(int) wcs[k].wrId()]--;
                    outstanding--;
                    bytes += size;
                }
            }
            double elapsed = (System.nanoTime() - t0) / 1e9;
            long wakeups = sum(engines, IDLE_PARKS) - wake0;
            long fpdus = sum(engines, CounterNames.FPDUS_RX) - fpdus0;
            long cpu = cpu(serverEngines) - cpu0;
            int used = 0;
            for (Counters c : server.engineCounters()) {
                used += c.get(CounterNames.QPS) > 0 ? 1 : 0;
            }
            return new Result(p, elapsed, bytes, bytes * 8 / elapsed / 1e9, wakeups / elapsed,
                    wakeups == 0 ? fpdus : (double) fpdus / wakeups, bytes == 0 ? 0 : cpu * 1024.0 / bytes, used);
        } finally {
            for (QueuePair q : cqps) {
                q.close();
            }
            for (QueuePair q : sqps) {
                q.close();
            }
            listener.close();
        }
    }

    private static long sum(Counters[] groups, String name) {
        long total = 0;
        for (Counters c : groups) {
            total += c.get(name);
        }
        return total;
    }

    private static long cpu(List<Thread> threads) {
        long total = 0;
        for (Thread t : threads) {
            long ns = THREADS.getThreadCpuTime(t.threadId());
            total += Math.max(0, ns);
        }
        return total;
    }
}
