package org.jwarp.engine.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.jwarp.engine.agent.Agent;
import org.jwarp.engine.agent.AgentInvoker;
import org.jwarp.engine.agent.AgentRunner;
import org.jwarp.engine.idle.BackoffIdleStrategy;
import org.jwarp.engine.idle.ParkIdleStrategy;
import org.jwarp.engine.idle.Parker;
import org.jwarp.engine.provider.JwarpConfig.Backoff;
import org.jwarp.engine.testing.Deadline;
import org.jwarp.sys.NanoClock;
import org.jwarp.verbs.Moderation;
import org.junit.jupiter.api.Test;

/**
 * The interrupt emulation with real threads: a waiter blocked in {@code await} is woken by an
 * engine thread's completion, and only by one that its arming asks for. Waits use deadlines, never
 * sleeps (docs/design.md rule 7).
 */
class CompletionNotifierThreadsTest {

    private static final long LONG_WAIT_SECONDS = 30;

    /** Starts a waiter thread blocked in {@code await} and returns its result. */
    private static CompletableFuture<String> awaitInThread(CompletionNotifier<String> n, String name) {
        CompletableFuture<String> result = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                result.complete(n.await(LONG_WAIT_SECONDS, TimeUnit.SECONDS));
            } catch (Throwable e) {
                result.completeExceptionally(e);
            }
        }, name);
        t.setDaemon(true);
        t.start();
        return result;
    }

    private static void awaitParked(CompletionNotifier<String> n, long parksBefore) {
        Deadline.await("the waiter to park", 5_000, () -> n.doorbell().parks() > parksBefore);
    }

    @Test
    void blockedWaiterWakesOnACompletion() throws Exception {
        CompletionNotifier<String> n = new CompletionNotifier<>(Moderation.NONE, NanoClock.SYSTEM, 4);
        CqArming<String> cq = n.register("cq1");
        cq.requestNotify(false);
        CompletableFuture<String> woken = awaitInThread(n, "cq-waiter");
        awaitParked(n, 0);
        assertTrue(cq.onCompletion(false));
        assertEquals("cq1", woken.get(5, TimeUnit.SECONDS));
        assertEquals(1, n.doorbell().wakeups(), "one event, one wake-up");
    }

    @Test
    void unarmedCqNeverWakesTheWaiter() throws Exception {
        CompletionNotifier<String> n = new CompletionNotifier<>(Moderation.NONE, NanoClock.SYSTEM, 4);
        CqArming<String> quiet = n.register("quiet");
        CqArming<String> armed = n.register("armed");
        armed.requestNotify(false);
        quiet.requestNotify(true);                         // armed for solicited only
        CompletableFuture<String> woken = awaitInThread(n, "cq-waiter");
        awaitParked(n, 0);
        for (int i = 0; i < 1000; i++) {
            quiet.onCompletion(false);                    // unsolicited: does not match
        }
        CqArming<String> unarmed = n.register("unarmed");
        for (int i = 0; i < 1000; i++) {
            unarmed.onCompletion(true);
        }
        assertEquals(0, n.doorbell().rung(), "no event was raised, so nothing rang");
        assertEquals(0, n.doorbell().wakeups());
        assertTrue(!woken.isDone(), "the waiter is still blocked");
        armed.onCompletion(false);
        assertEquals("armed", woken.get(5, TimeUnit.SECONDS));
        assertEquals(1, n.doorbell().wakeups());
    }

    /** The moderation period is polled by an engine agent's duty cycle, not by a timer thread. */
    @Test
    void moderationPeriodFiresFromTheEngineDutyCycle() throws Exception {
        CompletionNotifier<String> n = new CompletionNotifier<>(Moderation.of(1000, 200), NanoClock.SYSTEM, 4);
        CqArming<String> cq = n.register("cq1");
        Doorbell engineBell = new Doorbell();
        Agent engine = new Agent() {
            @Override
            public int doWork() {
                return n.poll();
            }

            @Override
            public String roleName() {
                return "moderation-engine";
            }
        };
        // The engine parks no longer than 100 µs at a time, so that the 200 µs period is polled.
        try (AgentRunner runner = AgentRunner.builder(engine)
                .idleStrategy(new BackoffIdleStrategy(engineBell, new Backoff(10, 2, 10_000, 100_000))).build().start()) {
            cq.requestNotify(false);
            CompletableFuture<String> woken = awaitInThread(n, "cq-waiter");
            awaitParked(n, 0);
            assertTrue(!cq.onCompletion(false), "1 of 1000: no event by count");
            assertEquals("cq1", woken.get(5, TimeUnit.SECONDS), "the period ran out and the engine fired it");
            assertTrue(runner.isRunning());
        }
    }

    @Test
    void closeWakesABlockedWaiterWithAnError() throws Exception {
        CompletionNotifier<String> n = new CompletionNotifier<>(Moderation.NONE, NanoClock.SYSTEM, 4);
        CompletableFuture<String> woken = awaitInThread(n, "cq-waiter");
        awaitParked(n, 0);
        n.close();
        ExecutionException e = org.junit.jupiter.api.Assertions.assertThrows(ExecutionException.class,
                () -> woken.get(5, TimeUnit.SECONDS));
        assertTrue(e.getCause() instanceof IllegalStateException, e.toString());
    }

    /**
     * No lost wake-ups between the waiter's park and the engines' events: 2,000 rounds of arm,
     * await, with two engine threads taking turns to complete exactly one work request per round,
     * racing the waiter going to sleep.
     */
    @Test
    void noLostWakeupsWithTwoEngineThreads() throws Exception {
        CompletionNotifier<String> n = new CompletionNotifier<>(Moderation.NONE, NanoClock.SYSTEM, 4);
        CqArming<String> cq = n.register("shared");
        int rounds = 2_000;
        AtomicInteger armedRound = new AtomicInteger();
        AtomicLong completions = new AtomicLong();
        AtomicInteger stop = new AtomicInteger();
        Thread[] engines = new Thread[2];
        for (int e = 0; e < engines.length; e++) {
            int id = e;
            engines[e] = new Thread(() -> {
                BackoffIdleStrategy idle = new BackoffIdleStrategy(Parker.PLAIN, new Backoff(20, 5, 1_000, 20_000));
                int done = 0;
                while (stop.get() == 0) {
                    int r = armedRound.get();
                    if (r > done && (r & 1) == id) {      // this engine's round: one completion
                        completions.incrementAndGet();
                        cq.onCompletion(false);
                        done = r;
                        idle.reset();
                    } else {
                        if (r > done) {
                            done = r;                     // the other engine's round
                        }
                        idle.idle(0);
                    }
                }
            }, "engine-" + e);
            engines[e].setDaemon(true);
            engines[e].start();
        }
        try {
            for (int r = 1; r <= rounds; r++) {
                cq.requestNotify(false);
                armedRound.set(r);
                String q = n.await(5, TimeUnit.SECONDS);
                if (q == null) {
                    throw new AssertionError("round " + r + ": the event was lost (" + cq + ", " + n.doorbell() + ")");
                }
                assertSame("shared", q);
            }
        } finally {
            stop.set(1);
            for (Thread t : engines) {
                t.join(5_000);
            }
        }
        assertEquals(rounds, completions.get());
        assertEquals(rounds, n.events());
        assertTrue(n.doorbell().wakeups() <= rounds, "at most one wake-up per event");
    }

    /** INVOKER mode: the waiting thread runs the engine's duty cycle itself; no other thread. */
    @Test
    void invokerModeAwaitRunsTheDutyCycle() throws InterruptedException, TimeoutException {
        CompletionNotifier<String> n = new CompletionNotifier<>(Moderation.NONE, NanoClock.SYSTEM, 4);
        CqArming<String> cq = n.register("cq1");
        AtomicInteger cycles = new AtomicInteger();
        Thread caller = Thread.currentThread();
        Agent engine = new Agent() {
            @Override
            public int doWork() {
                if (Thread.currentThread() != caller) {
                    throw new AssertionError("ran on another thread");
                }
                if (cycles.incrementAndGet() == 50) {
                    cq.onCompletion(false);               // the "engine" completes a request
                    return 1;
                }
                return n.poll();
            }

            @Override
            public String roleName() {
                return "invoked-engine";
            }
        };
        try (AgentInvoker invoker = new AgentInvoker(engine).start()) {
            cq.requestNotify(false);
            assertEquals("cq1", n.await(5, TimeUnit.SECONDS, invoker, new ParkIdleStrategy(Parker.PLAIN, 1_000)));
            assertEquals(50, cycles.get());
            assertNull(n.await(0, TimeUnit.SECONDS, invoker, new ParkIdleStrategy(Parker.PLAIN, 1_000)));
        }
    }
}
