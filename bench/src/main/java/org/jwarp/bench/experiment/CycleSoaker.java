package org.jwarp.bench.experiment;

import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.invoke.MethodHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicLongArray;
import org.jwarp.engine.affinity.ThreadAffinity;
import org.jwarp.sys.Downcalls;

/**
 * Seed 002's way of measuring CPU load (Andrew Morton's cyclesoak): one thread per CPU, pinned
 * there, at the lowest priority, counting loop iterations. What a CPU's soaker did not get is what
 * everything else took: load = 1 - (rate during a run) / (rate on an idle machine). Unlike per-thread
 * CPU time it also sees the kernel's work that runs in no thread of ours (softirqs, other processes).
 *
 * <p>The threads lower themselves to nice 19 ({@code setpriority(PRIO_PROCESS, 0, 19)}, which on
 * Linux acts on the calling thread), as cyclesoak does, so that any runnable thread of normal
 * priority takes the CPU from them.
 */
public final class CycleSoaker implements AutoCloseable {

    /** Loop iterations between two publications of a thread's count. */
    private static final int CHUNK = 1 << 12;
    /** Longs between two threads' counts, so that no two share a cache line. */
    private static final int STRIDE = 16;
    private static final int LOWEST_NICE = 19;
    /** A thread's slots after its count: 1 when at nice 19, -1 when it could not lower itself; the loop's sink. */
    private static final int READY = 1;
    private static final int SINK = 2;

    private final List<Integer> cpus;
    private final AtomicLongArray counts;
    private final List<Thread> threads = new ArrayList<>();
    private final CountDownLatch ready;
    private volatile boolean stop;

    /** A count of each soaker's chunks at one instant. */
    public record Snapshot(long nanos, long[] chunks) {
    }

    /** Starts one soaker on each CPU of {@code cpus}. */
    public CycleSoaker(List<Integer> cpus) {
        this.cpus = List.copyOf(cpus);
        this.counts = new AtomicLongArray(this.cpus.size() * STRIDE);
        this.ready = new CountDownLatch(this.cpus.size());
        for (int i = 0; i < this.cpus.size(); i++) {
            int k = i;
            threads.add(Thread.ofPlatform().daemon().name("jwarp-cycle-soaker-" + this.cpus.get(i))
                    .priority(Thread.MIN_PRIORITY).start(() -> soak(k)));
        }
    }

    private void soak(int k) {
        ThreadAffinity.pinCurrentThread(cpus.get(k));
        counts.setRelease(k * STRIDE + READY, lowerPriority() ? 1 : -1);
        ready.countDown();
        long x = k;
        long n = 0;
        while (!stop) {
            for (int i = 0; i < CHUNK; i++) {
                x = x * 6364136223846793005L + 1442695040888963407L;
            }
            counts.setOpaque(k * STRIDE, ++n);
            if (x == 42) {
                counts.setOpaque(k * STRIDE + SINK, x);      // keeps the loop's work observable
            }
        }
    }

    private static boolean lowerPriority() {
        try (Arena arena = Arena.ofConfined()) {
            // int setpriority(int which, id_t who, int prio)
            MethodHandle set = Downcalls.find("setpriority", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT,
                    JAVA_INT)).orElse(null);
            return set != null && (int) set.invokeExact(Downcalls.captureBuffer(arena), 0, 0, LOWEST_NICE) == 0;
        } catch (Throwable t) {
            return false;
        }
    }

    public List<Integer> cpus() {
        return cpus;
    }

    /** Whether every soaker runs at nice 19 (false: at normal priority, which skews the loads upward). */
    public boolean lowestPriority() throws InterruptedException {
        awaitReady();
        for (int i = 0; i < threads.size(); i++) {
            if (counts.getAcquire(i * STRIDE + READY) != 1) {
                return false;
            }
        }
        return true;
    }

    private void awaitReady() throws InterruptedException {
        ready.await();
    }

    public Snapshot snapshot() {
        long[] c = new long[cpus.size()];
        for (int i = 0; i < c.length; i++) {
            c[i] = counts.getOpaque(i * STRIDE);
        }
        return new Snapshot(System.nanoTime(), c);
    }

    /** Loop iterations per second of soaker {@code i} between two snapshots. */
    public static double rate(Snapshot from, Snapshot to, int i) {
        return (double) (to.chunks()[i] - from.chunks()[i]) * CHUNK / ((to.nanos() - from.nanos()) / 1e9);
    }

    /**
     * Each soaker's rate over {@code millis} of nothing else running: the idle rate the loads are
     * measured against.
     */
    public double[] calibrate(long millis) throws InterruptedException {
        awaitReady();
        Snapshot a = snapshot();
        Thread.sleep(millis);
        Snapshot b = snapshot();
        double[] r = new double[cpus.size()];
        for (int i = 0; i < r.length; i++) {
            r[i] = rate(a, b, i);
        }
        return r;
    }

    /** % of CPU {@code i} that something other than its soaker took between two snapshots. */
    public static double loadPercent(Snapshot from, Snapshot to, int i, double idleRate) {
        return idleRate > 0 ? Math.max(0, 100 * (1 - rate(from, to, i) / idleRate)) : Double.NaN;
    }

    @Override
    public void close() throws InterruptedException {
        stop = true;
        for (Thread t : threads) {
            t.join(5000);
        }
    }
}
