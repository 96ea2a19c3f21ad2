package org.jwarp.bench.engine;

import java.util.Arrays;
import java.util.Locale;
import java.util.concurrent.TimeUnit;

import org.jwarp.engine.affinity.Cpus;
import org.jwarp.engine.affinity.ThreadAffinity;
import org.jwarp.engine.idle.BackoffIdleStrategy;
import org.jwarp.engine.idle.BusySpinIdleStrategy;
import org.jwarp.engine.idle.IdleStrategy;
import org.jwarp.engine.idle.ParkIdleStrategy;
import org.jwarp.engine.notify.Doorbell;
import org.jwarp.engine.provider.JwarpConfig.Backoff;
import org.jwarp.engine.ring.SpscSlotRing;

/**
 * One-way hand-off latency between an "application" thread and an "engine" thread through the
 * engine's rings and doorbells, under each idle strategy: a ping-pong over two
 * {@link SpscSlotRing}s, each post followed by a {@link Doorbell#ring()}, each side idling through
 * its own doorbell. Reports half the round trip (p50/p99/p99.9) and the ratio of each strategy's
 * median to busy-spinning's, measured in the same run (docs/design.md rule 10).
 *
 * <p>Run: {@code java --enable-native-access=ALL-UNNAMED -cp bench/target/jwarp-jmh.jar
 * org.jwarp.bench.engine.HandoffLatency [rounds] [cpuA] [cpuB]} (defaults 100000, 0, 1). The two
 * threads are pinned to the two CPUs when affinity is available. With SPIN, both threads spin:
 * on a 2-core machine run nothing else meanwhile.
 */
public final class HandoffLatency {

    /** The message slot: the round number. */
    static final class Msg {
        long round;
    }

    private HandoffLatency() {
    }

    public static void main(String[] args) throws InterruptedException {
        int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 100_000;
        int cpuA = args.length > 1 ? Integer.parseInt(args[1]) : 0;
        int cpuB = args.length > 2 ? Integer.parseInt(args[2]) : 1;
        System.out.printf(Locale.ROOT, "hand-off latency (RTT/2), %d rounds, threads on CPUs %d and %d%s%n", rounds,
                cpuA, cpuB, ThreadAffinity.isSupported() ? "" : " (affinity unsupported: unpinned)");
        String[] kinds = {"spin", "backoff", "park"};
        double spinMedian = 0;
        for (String kind : kinds) {
            long[] halfRtt = run(kind, rounds, cpuA, cpuB);
            Arrays.sort(halfRtt);
            double p50 = halfRtt[halfRtt.length / 2];
            if (kind.equals("spin")) {
                spinMedian = p50;
            }
            System.out.printf(Locale.ROOT, "%-8s p50 %8.0f ns  p99 %8d ns  p99.9 %8d ns  max %9d ns  p50/spin %6.1fx%n",
                    kind, p50, halfRtt[(int) (halfRtt.length * 0.99)], halfRtt[(int) (halfRtt.length * 0.999)],
                    halfRtt[halfRtt.length - 1], p50 / spinMedian);
        }
    }

    private static IdleStrategy idle(String kind, Doorbell bell) {
        return switch (kind) {
            case "spin" -> BusySpinIdleStrategy.INSTANCE;
            case "backoff" -> new BackoffIdleStrategy(bell, Backoff.DEFAULT);
            case "park" -> new ParkIdleStrategy(bell, TimeUnit.MILLISECONDS.toNanos(100));
            default -> throw new IllegalArgumentException(kind);
        };
    }

    private static long[] run(String kind, int rounds, int cpuA, int cpuB) throws InterruptedException {
        int warmUp = rounds / 5;
        SpscSlotRing<Msg> toEngine = new SpscSlotRing<>(64, Msg::new);
        SpscSlotRing<Msg> toApp = new SpscSlotRing<>(64, Msg::new);
        Doorbell engineBell = new Doorbell();
        Doorbell appBell = new Doorbell();
        long total = (long) warmUp + rounds;
        Thread engine = new Thread(() -> {
            pin(cpuB);
            IdleStrategy idle = idle(kind, engineBell);
            for (long done = 0; done < total; ) {
                engineBell.consume();
                Msg in = toEngine.peek();
                if (in == null) {
                    idle.idle(0);
                    continue;
                }
                long round = in.round;
                toEngine.release();
                Msg out = toApp.claim();                   // never full: one message in flight
                out.round = round;
                toApp.publish();
                appBell.ring();
                idle.idle(1);
                done++;
            }
        }, "bench-engine");
        engine.setDaemon(true);
        engine.start();
        pin(cpuA);
        IdleStrategy idle = idle(kind, appBell);
        long[] samples = new long[rounds];
        for (long r = 0; r < total; r++) {
            long start = System.nanoTime();
            Msg m = toEngine.claim();
            m.round = r;
            toEngine.publish();
            engineBell.ring();
            Msg reply;
            for (;;) {
                appBell.consume();
                reply = toApp.peek();
                if (reply != null) {
                    break;
                }
                idle.idle(0);
            }
            if (reply.round != r) {
                throw new IllegalStateException("round " + r + " got the reply of " + reply.round);
            }
            toApp.release();
            idle.idle(1);
            long rtt = System.nanoTime() - start;
            if (r >= warmUp) {
                samples[(int) (r - warmUp)] = rtt / 2;
            }
        }
        engine.join();
        unpin();
        return samples;
    }

    private static void pin(int cpu) {
        if (ThreadAffinity.isSupported() && ThreadAffinity.getAffinity().orElseThrow().contains(cpu)) {
            ThreadAffinity.pinCurrentThread(cpu);
        }
    }

    /** The main thread's mask before any pinning, restored after each run. */
    private static final Cpus ORIGINAL = ThreadAffinity.getAffinity().orElse(Cpus.EMPTY);

    private static void unpin() {
        if (!ORIGINAL.isEmpty()) {
            ThreadAffinity.setAffinity(ORIGINAL);
        }
    }
}
