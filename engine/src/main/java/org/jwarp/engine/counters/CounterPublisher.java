package org.jwarp.engine.counters;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Supplier;
import org.jwarp.verbs.Counters;

/**
 * Copies the counters of this process's devices into their {@link CounterFile}s at a low rate,
 * on one daemon thread per process ({@code jwarp-stat}), so that other processes can read them.
 *
 * <p>Why a copier rather than counters that live in the file: the data path keeps writing its
 * own single-writer counters ({@link org.jwarp.verbs.CounterSet}: a plain add and a release store
 * to a long on the owner's cache line), untouched; queue pairs come and go without a slot
 * allocator in shared memory; and the cost — a few microseconds every
 * {@link CounterFile#DEFAULT_PERIOD_MILLIS} ms, off the data path — is paid by a thread that
 * sleeps in between (it never spins, so it does not count against the spinning-thread budget).
 * A reader sees values at most one period old while a publication is cheap.
 *
 * <p>A publication visits every queue pair, so its cost grows with their number; with tens of
 * thousands of QPs a fixed period would make this thread a busy one, taking a CPU from the engines
 * and the applications beside it. It therefore rests at least {@value #REST_PER_WORK} times as long
 * as its last round took ({@link #pauseAfter}): at most about one percent of a CPU whatever the
 * count, the values growing older in proportion (the file's publication time tells a reader how old).
 */
public final class CounterPublisher {

    /** Time resting per unit of time publishing: bounds this thread to about 1 % of one CPU. */
    static final int REST_PER_WORK = 99;

    private static CounterPublisher instance;

    private final CopyOnWriteArrayList<Registration> registrations = new CopyOnWriteArrayList<>();
    private final long periodNanos;
    private final Thread thread;

    private CounterPublisher(long periodMillis) {
        this.periodNanos = TimeUnit.MILLISECONDS.toNanos(periodMillis);
        this.thread = Thread.ofPlatform().name("jwarp-stat").daemon().unstarted(this::run);
    }

    /** The process's publisher, started on first use with the period {@link CounterFile#periodMillis()}. */
    public static synchronized CounterPublisher get() {
        if (instance == null) {
            CounterPublisher p = new CounterPublisher(CounterFile.periodMillis());
            p.thread.start();
            // a process that exits without closing its devices takes its files along
            Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().name("jwarp-stat-cleanup").unstarted(p::closeAll));
            instance = p;
        }
        return instance;
    }

    /** One device's publication; closing it stops the publication and deletes the file. */
    public final class Registration implements AutoCloseable {
        private final CounterFileWriter writer;
        private final Supplier<? extends List<? extends Counters>> groups;
        private final String label;

        private Registration(CounterFileWriter writer, Supplier<? extends List<? extends Counters>> groups, String label) {
            this.writer = writer;
            this.groups = groups;
            this.label = label;
        }

        public CounterFileWriter writer() {
            return writer;
        }

        void publish() {
            writer.publish(groups.get());
        }

        @Override
        public void close() throws IOException {
            registrations.remove(this);
            writer.close(); // waits for a publication under way
        }
    }

    /**
     * Publishes {@code groups} into {@code writer} now and then every period, until the returned
     * registration is closed.
     */
    public Registration register(CounterFileWriter writer, Supplier<? extends List<? extends Counters>> groups,
                                 String label) {
        Registration r = new Registration(writer, groups, label);
        r.publish();
        registrations.add(r);
        LockSupport.unpark(thread);
        return r;
    }

    private void closeAll() {
        for (Registration r : registrations) {
            try {
                r.close();
            } catch (IOException e) {
                System.err.println("jwarp: could not remove " + r.writer.path() + ": " + e);
            }
        }
    }

    /**
     * How long to rest after a round of publications that took {@code roundNanos}: the period, or
     * {@value #REST_PER_WORK} times the round where that is longer.
     */
    static long pauseAfter(long roundNanos, long periodNanos) {
        long rest = roundNanos > Long.MAX_VALUE / REST_PER_WORK ? Long.MAX_VALUE : roundNanos * REST_PER_WORK;
        return Math.max(periodNanos, rest);
    }

    private void run() {
        while (true) {
            if (registrations.isEmpty()) {
                LockSupport.park(this);
                continue;
            }
            LockSupport.parkNanos(this, pauseAfter(publishRound(), periodNanos));
        }
    }

    /**
     * Publishes every registration once and returns how long it took. A method of its own so that
     * no registration stays referenced from this thread's frame while it rests: a closed device
     * must be collectable at once, its direct buffers with it.
     */
    private long publishRound() {
        long started = System.nanoTime();
        for (Registration r : registrations) {
            try {
                r.publish();
            } catch (RuntimeException e) {
                // not on the data path, and never silent: say which device stopped publishing
                registrations.remove(r);
                System.err.println("jwarp: counters of " + r.label + " are no longer published to "
                        + r.writer.path() + ": " + e);
                e.printStackTrace(System.err);
            }
        }
        return System.nanoTime() - started;
    }
}
