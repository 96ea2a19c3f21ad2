package org.jwarp.degen.testbed;

import java.io.IOException;
import java.lang.foreign.Arena;
import org.jwarp.degen.DelayLine;
import org.jwarp.degen.DirectionStats;
import org.jwarp.degen.LinkModel;
import org.jwarp.sys.NanoClock;
import org.jwarp.degen.PacketQueue;
import org.jwarp.degen.Router;
import org.jwarp.degen.StatsReporter;
import org.jwarp.degen.StatsSnapshot;
import org.jwarp.degen.sys.Netns;
import org.jwarp.degen.sys.Tun;

/**
 * A running router between two existing host namespaces: opens one TUN per host (in this
 * process's namespace, then moves each into its host, where the descriptor keeps working), gives
 * them addresses and routes, and runs the {@link Router} and the {@link StatsReporter} on threads
 * of their own. Closing it stops both, publishes the final statistics and closes the TUNs, which
 * removes the interfaces.
 */
public final class RouterSession implements AutoCloseable {

    /** Largest IP packet; reservations are this big so that a read is never truncated. */
    private static final int MAX_PACKET = 65535;
    private static final int SLOTS = 1 << 16;

    private final RouterConfig config;
    private final Arena arena;
    private final Tun tunA;
    private final Tun tunB;
    private final DelayLine a2b;
    private final DelayLine b2a;
    private final Router router;
    private final Thread routerThread;
    private final StatsReporter reporter;
    private final Thread reporterThread;
    private StatsSnapshot finalStats;
    private boolean closed;

    private RouterSession(RouterConfig config, Arena arena, Tun tunA, Tun tunB) {
        this.config = config;
        this.arena = arena;
        this.tunA = tunA;
        this.tunB = tunB;
        Topology t = config.topology();
        this.a2b = line(new DirectionStats("a2b"), config.a2b(), config.seed(), t.mtuB());
        this.b2a = line(new DirectionStats("b2a"), config.b2a(), config.seed() + 1, t.mtuA());
        this.router = new Router(tunA, tunB, a2b, b2a, config.tuning(), NanoClock.SYSTEM);
        this.routerThread = new Thread(router, "degen-router");
        this.reporter = new StatsReporter(new DirectionStats[] {a2b.stats(), b2a.stats()},
                new String[] {config.a2b().describe(), config.b2a().describe()},
                java.util.Map.of("router.spin_margin_ns", router::currentMarginNanos,
                        "router.rt_demotions", router::realtimeDemotions,
                        "router.realtime", () -> router.realtimeNow() ? 1 : 0),
                config.statsFile(), config.statsIntervalNanos());
        this.reporterThread = new Thread(reporter, "degen-stats");
        reporterThread.setDaemon(true);
    }

    private DelayLine line(DirectionStats stats, org.jwarp.degen.LinkParams params, long seed, int egressMtu) {
        PacketQueue queue = new PacketQueue(arena.allocate(config.ringBytes(), 4096), SLOTS, MAX_PACKET);
        return new DelayLine(new LinkModel(params, seed), queue, stats, egressMtu, arena.allocate(MAX_PACKET, 64));
    }

    /** Sets up both TUNs in their hosts and starts forwarding. */
    public static RouterSession start(RouterConfig config) throws IOException {
        Topology t = config.topology();
        for (String ns : new String[] {t.nsA(), t.nsB()}) {
            if (!Netns.exists(ns)) {
                throw new IOException("network namespace " + ns + " does not exist; 'jwarp testbed up' creates the hosts and runs degen between them");
            }
        }
        Arena arena = Arena.ofShared();
        Tun a = null;
        Tun b = null;
        try {
            a = Tun.open(t.tunA());
            b = Tun.open(t.tunB());
            HostNetwork.attach(t.nsA(), t.tunA(), t.addrA(), t.addrB(), t.mtuA(), true);
            HostNetwork.attach(t.nsB(), t.tunB(), t.addrB(), t.addrA(), t.mtuB(), true);
            RouterSession s = new RouterSession(config, arena, a, b);
            s.routerThread.start();
            s.reporterThread.start();
            return s;
        } catch (IOException | RuntimeException e) {
            closeQuietlyInto(e, a);
            closeQuietlyInto(e, b);
            arena.close();
            throw e;
        }
    }

    private static void closeQuietlyInto(Exception primary, Tun tun) {
        if (tun == null) {
            return;
        }
        try {
            tun.close();
        } catch (IOException e) {
            primary.addSuppressed(e);
        }
    }

    public RouterConfig config() {
        return config;
    }

    /** Blocks until the router stops (it only stops by itself on an I/O error); returns that error. */
    public Throwable awaitRouterExit() throws InterruptedException {
        routerThread.join();
        return router.failure();
    }

    /** True once the router thread forwards (it calibrates its wake-ups first). */
    public boolean forwarding() {
        return router.started();
    }

    /** What the router thread got from the scheduler; valid once forwarding started. */
    public String schedulingReport() {
        return router.schedulingReport() + "; " + router.calibrationReport();
    }

    /** Takes the link down in both directions for {@code nanos}: every packet reaching it meanwhile is dropped. */
    public void cut(long nanos) {
        long until = NanoClock.SYSTEM.nanoTime() + nanos;
        a2b.cut(until);
        b2a.cut(until);
    }

    /** The latest statistics, published now. */
    public StatsSnapshot stats() throws IOException {
        return reporter.publish();
    }

    /** Stops forwarding, publishes and returns the final statistics, closes the TUNs. Idempotent. */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        router.stop();
        reporter.stop();
        try {
            routerThread.join();
            reporterThread.join();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted while stopping the router", e);
        }
        IOException failure = null;
        try {
            finalStats = reporter.publish();
        } catch (IOException e) {
            failure = e;
        }
        for (Tun tun : new Tun[] {tunA, tunB}) {
            try {
                tun.close();
            } catch (IOException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        arena.close();
        if (failure != null) {
            throw failure;
        }
    }

    /** The statistics published by {@link #close()}, or null before it. */
    public synchronized StatsSnapshot finalStats() {
        return finalStats;
    }
}
