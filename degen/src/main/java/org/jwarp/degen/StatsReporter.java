package org.jwarp.degen;

import java.io.IOException;
import java.nio.file.Path;
import java.util.concurrent.locks.LockSupport;
import org.HdrHistogram.Histogram;

/**
 * Publishes the router's statistics to a file every interval, so that they are readable while it
 * runs ({@code jwarp testbed status}, {@code cat}, a benchmark taking snapshots) and remain after
 * it exits. A file rather than a socket: it needs no port inside the hosts' namespaces, and the
 * last snapshot survives a crash of the emulator. Runs on its own thread so that the file I/O
 * never sits on the router's packet path; it only reads the router's single-writer counters and
 * swaps the wait-free histogram recorders.
 */
public final class StatsReporter implements Runnable {

    private final DirectionStats[] stats;
    private final String[] params;
    private final Histogram[] cumulative;
    private final Histogram[] recycle;
    private final Path file;
    private final long intervalNanos;
    private final long startNanos;
    private volatile boolean running = true;
    private volatile IOException failure;

    private final java.util.Map<String, java.util.function.LongSupplier> gauges;

    /**
     * @param gauges extra values published under their names (the router's spin margin, its
     *               real-time demotions); each supplier must be safe to call from this thread
     */
    public StatsReporter(DirectionStats[] stats, String[] params, java.util.Map<String, java.util.function.LongSupplier> gauges,
                         Path file, long intervalNanos) {
        this.gauges = gauges;
        this.stats = stats;
        this.params = params;
        this.file = file;
        this.intervalNanos = intervalNanos;
        this.cumulative = new Histogram[stats.length];
        this.recycle = new Histogram[stats.length];
        for (int i = 0; i < stats.length; i++) {
            cumulative[i] = new Histogram(DirectionStats.MAX_TRACKED_NANOS, 3);
        }
        this.startNanos = System.nanoTime();
    }

    @Override
    public void run() {
        while (running) {
            LockSupport.parkNanos(intervalNanos);
            try {
                publish();
            } catch (IOException e) {
                failure = e;
                return;
            }
        }
    }

    public void stop() {
        running = false;
    }

    /** The write error that stopped the reporter, if any. */
    public IOException failure() {
        return failure;
    }

    /** Takes the latest counters and errors into a snapshot and writes it (if a file was given). */
    public synchronized StatsSnapshot publish() throws IOException {
        for (int i = 0; i < stats.length; i++) {
            recycle[i] = stats[i].takeDelayErrors(recycle[i]);
            cumulative[i].add(recycle[i]);
        }
        StatsSnapshot s = StatsSnapshot.of(System.nanoTime() - startNanos, params, stats, cumulative, gauges);
        if (file != null) {
            s.write(file);
        }
        return s;
    }
}
