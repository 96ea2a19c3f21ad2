package org.jwarp.bench.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.ManagementFactory;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;

/** Per-thread CPU time by the names the kernel shows, as the perf tests' warm-up reads it. */
class ThreadCpuTest {

    @Test
    void countsTheCpuOfTheNamedThreadsOnlyWhileTheyRun() throws InterruptedException {
        CountDownLatch spun = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        Thread busy = Thread.ofPlatform().name("cpu-probe-busy").start(() -> {
            // spins until its own CPU clock says 50 ms, however busy the machine
            long x = 0;
            while (ManagementFactory.getThreadMXBean().getCurrentThreadCpuTime() < 50_000_000L) {
                x += System.nanoTime() ^ x;
            }
            spun.countDown();
            try {
                done.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (x == 42) {
                System.out.println(x);
            }
        });
        spun.await();
        long after = ThreadCpu.nanos(name -> name.equals("cpu-probe-busy"));
        assertTrue(after >= 45_000_000L, "a thread that spun 50 ms of CPU time shows " + after + " ns");
        Thread.sleep(100);
        long idle = ThreadCpu.nanos(name -> name.equals("cpu-probe-busy"));
        assertTrue(idle - after < 10_000_000L, "a waiting thread's CPU time grew by " + (idle - after) + " ns");
        assertEquals(0, ThreadCpu.nanos(name -> name.equals("no-such-thread")));
        done.countDown();
        busy.join();
    }

    @Test
    void theJitCompilersAreSeenByTheirNames() {
        // the JVM's compiler threads are not Java threads; a JVM that has run anything has compiled
        assertTrue(SideReport.compiledMillis() >= 0);
        assertTrue(ThreadCpu.nanos(ThreadCpu.JIT_COMPILERS) > 0);
    }
}
