package org.jwarp.engine.affinity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import org.jwarp.engine.agent.Agent;
import org.jwarp.engine.agent.AgentRunner;
import org.jwarp.engine.idle.ParkIdleStrategy;
import org.jwarp.engine.idle.Parker;
import org.junit.jupiter.api.Test;
import org.jwarp.sys.Errno;

/**
 * Affinity through FFM. Each test pins a thread of its own, so the test runner's thread keeps its
 * mask; the pinning tests also restore the original mask before the thread ends.
 */
class ThreadAffinityTest {

    @Test
    void supportedOnLinuxOrReasonGiven() {
        if (System.getProperty("os.name").startsWith("Linux")) {
            assertTrue(ThreadAffinity.isSupported(), "Linux with native access: " + ThreadAffinity.unsupportedReason());
            assertNull(ThreadAffinity.unsupportedReason());
        } else {
            assertFalse(ThreadAffinity.isSupported());
            assertTrue(ThreadAffinity.unsupportedReason() != null);
            assertFalse(ThreadAffinity.pinCurrentThread(0), "the fallback: false, no exception");
            assertEquals(-1, ThreadAffinity.currentCpu());
            assertTrue(ThreadAffinity.getAffinity().isEmpty());
        }
    }

    @Test
    void pinToOneCpuReadItBackAndRestore() throws Exception {
        assumeTrue(ThreadAffinity.isSupported(), "affinity unsupported here");
        CompletableFuture<String> result = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                Cpus original = ThreadAffinity.getAffinity().orElseThrow();
                assertFalse(original.isEmpty());
                int target = original.toArray()[original.size() - 1];   // the last CPU we may use
                try {
                    assertTrue(ThreadAffinity.pinCurrentThread(target));
                    assertEquals(Cpus.of(target), ThreadAffinity.getAffinity().orElseThrow(), "read back");
                    assertEquals(target, ThreadAffinity.currentCpu(), "a pinned thread runs on its CPU");
                } finally {
                    assertTrue(ThreadAffinity.setAffinity(original));
                }
                assertEquals(original, ThreadAffinity.getAffinity().orElseThrow(), "original mask restored");
                result.complete("pinned to " + target + ", restored " + original);
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        }, "affinity-test");
        t.start();
        result.get(10, TimeUnit.SECONDS);
        t.join();
    }

    @Test
    void kernelRefusalCarriesErrno() throws Exception {
        assumeTrue(ThreadAffinity.isSupported(), "affinity unsupported here");
        CompletableFuture<AffinityException> result = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                Cpus original = ThreadAffinity.getAffinity().orElseThrow();
                int absent = 1023;
                if (original.contains(absent)) {
                    result.complete(null);                // a 1024-CPU machine: nothing to refuse
                    return;
                }
                try {
                    ThreadAffinity.pinCurrentThread(absent);
                    result.completeExceptionally(new AssertionError("pinning to a CPU we do not have succeeded"));
                } catch (AffinityException e) {
                    result.complete(e);
                }
                assertEquals(original, ThreadAffinity.getAffinity().orElseThrow(), "a refused call changes nothing");
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        }, "affinity-refusal-test");
        t.start();
        AffinityException e = result.get(10, TimeUnit.SECONDS);
        t.join();
        assumeTrue(e != null, "this machine has CPU 1023");
        assertEquals(Errno.EINVAL, e.errno());
        assertTrue(e.getMessage().contains("sched_setaffinity failed: EINVAL (errno 22)"), e.getMessage());
    }

    @Test
    void emptySetIsRejectedBeforeAnyCall() {
        assertThrows(IllegalArgumentException.class, () -> ThreadAffinity.setAffinity(Cpus.EMPTY));
        assertThrows(IllegalArgumentException.class, () -> ThreadAffinity.setAffinity(null));
    }

    @Test
    void currentCpuIsOneWeMayRunOn() {
        assumeTrue(ThreadAffinity.isSupported(), "affinity unsupported here");
        int cpu = ThreadAffinity.currentCpu();
        assertTrue(ThreadAffinity.getAffinity().orElseThrow().contains(cpu), "cpu " + cpu);
    }

    /** The runner pins its thread before onStart when asked to. */
    @Test
    void agentRunnerPinsItsThread() {
        assumeTrue(ThreadAffinity.isSupported(), "affinity unsupported here");
        int target = ThreadAffinity.getAffinity().orElseThrow().first();
        CompletableFuture<Cpus> seenInOnStart = new CompletableFuture<>();
        Agent agent = new Agent() {
            @Override
            public void onStart() {
                seenInOnStart.complete(ThreadAffinity.getAffinity().orElseThrow());
            }

            @Override
            public int doWork() {
                return 0;
            }

            @Override
            public String roleName() {
                return "pinned-engine";
            }
        };
        AgentRunner runner = AgentRunner.builder(agent).idleStrategy(new ParkIdleStrategy(Parker.PLAIN, 1_000_000))
                .cpu(target).closeTimeout(Duration.ofSeconds(5)).build().start();
        try {
            assertEquals(Cpus.of(target), seenInOnStart.get(5, TimeUnit.SECONDS));
            assertEquals(target, runner.pinnedCpu());
        } catch (Exception e) {
            throw new AssertionError(e);
        } finally {
            runner.close();
        }
    }
}
