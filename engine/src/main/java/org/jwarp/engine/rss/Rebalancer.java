package org.jwarp.engine.rss;

import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.jwarp.engine.provider.JwarpDevice;
import org.jwarp.engine.provider.JwarpQp;
import org.jwarp.engine.rss.RssConfig;
import org.jwarp.verbs.CounterNames;
import org.jwarp.verbs.Counters;

/**
 * Seed 004's rebalancing: every period it looks at how many bytes each engine thread's connections
 * moved (in and out), and moves the busiest indirection-table entry of the busiest engine thread to
 * the least busy one — every period ({@link RssConfig.Rebalance#PERIODIC}) or only when the busiest
 * thread carried more than the threshold times the average ({@link RssConfig.Rebalance#THRESHOLD}).
 * An entry whose bytes exceed the gap it would close stays: moving it would only swap the roles.
 *
 * <p>Its own daemon thread, setup-path work only: the moves are engine commands
 * ({@link JwarpDevice#moveEntry}).
 */
public final class Rebalancer implements Runnable {

    private final JwarpDevice device;
    private final RssConfig config;
    private final Thread thread;
    private volatile boolean running = true;
    /** Each QP's bytes (tx + rx) at the last look, by QP number. */
    private final Map<Integer, Long> lastBytes = new HashMap<>();

    public Rebalancer(JwarpDevice device, RssConfig config) {
        this.device = device;
        this.config = config;
        this.thread = Thread.ofPlatform().daemon().name("jwarp-rebalancer-" + device.index()).unstarted(this);
    }

    public void start() {
        thread.start();
    }

    @Override
    public void run() {
        long period = config.period().toNanos();
        while (running) {
            LockSupport.parkNanos(period);
            if (!running) {
                return;
            }
            try {
                look();
            } catch (RuntimeException e) {
                if (running) {
                    device.report(new IllegalStateException("the rebalancer failed one look; it carries on", e));
                }
            }
        }
    }

    /** One look: the period's bytes per engine thread and per entry, and at most one move. */
    public int look() {
        int engines = device.engines().workers().length;
        long[] perEngine = new long[engines];
        Map<Integer, long[]> perEntry = new HashMap<>();     // entry -> {bytes, engine}
        for (JwarpQp qp : device.openQps()) {
            Counters c = qp.counters();
            long now = c.get(CounterNames.BYTES_TX) + c.get(CounterNames.BYTES_RX);
            Long before = lastBytes.put(qp.qpNum(), now);
            long delta = before == null ? 0 : Math.max(0, now - before);
            int engine = qp.worker().index();
            perEngine[engine] += delta;
            if (qp.rssEntry() >= 0) {
                perEntry.computeIfAbsent(qp.rssEntry(), e -> new long[] {0, engine})[0] += delta;
            }
        }
        int busiest = 0;
        int idlest = 0;
        long total = 0;
        for (int e = 0; e < engines; e++) {
            total += perEngine[e];
            busiest = perEngine[e] > perEngine[busiest] ? e : busiest;
            idlest = perEngine[e] < perEngine[idlest] ? e : idlest;
        }
        if (busiest == idlest || total == 0) {
            return 0;
        }
        double average = (double) total / engines;
        if (config.rebalance() == RssConfig.Rebalance.THRESHOLD && perEngine[busiest] <= config.threshold() * average) {
            return 0;
        }
        long gap = perEngine[busiest] - perEngine[idlest];
        int entry = -1;
        long entryBytes = 0;
        for (Map.Entry<Integer, long[]> e : perEntry.entrySet()) {
            long bytes = e.getValue()[0];
            // the busiest entry that still narrows the gap (one of more than the gap would swap the roles)
            if (e.getValue()[1] == busiest && bytes > entryBytes && bytes < gap) {
                entry = e.getKey();
                entryBytes = bytes;
            }
        }
        return entry < 0 ? 0 : device.moveEntry(entry, idlest);
    }

    public void close() {
        running = false;
        LockSupport.unpark(thread);
        try {
            thread.join(java.time.Duration.ofSeconds(10));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
