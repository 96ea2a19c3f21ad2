package org.jwarp.engine.agent;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import org.jwarp.engine.counters.EngineCounters;
import org.jwarp.engine.idle.ParkIdleStrategy;
import org.jwarp.engine.notify.Doorbell;
import org.jwarp.engine.testing.Deadline;
import org.junit.jupiter.api.Test;

class AgentRunnerTest {

    private static final long HOUR = TimeUnit.HOURS.toNanos(1);

    /** Records which thread ran each callback; fails in doWork at a chosen cycle. */
    private static final class TestAgent implements Agent {
        final List<String> events = new CopyOnWriteArrayList<>();
        final AtomicLong cycles = new AtomicLong();
        volatile Thread startThread;
        volatile Thread closeThread;
        final long failAt;
        final RuntimeException failure;

        TestAgent(long failAt, RuntimeException failure) {
            this.failAt = failAt;
            this.failure = failure;
        }

        @Override
        public void onStart() {
            startThread = Thread.currentThread();
            events.add("start");
        }

        @Override
        public int doWork() {
            long n = cycles.incrementAndGet();
            if (n == failAt) {
                throw failure;
            }
            return n < 100 ? 1 : 0;                       // busy for 100 cycles, then idle (parks)
        }

        @Override
        public void onClose() {
            closeThread = Thread.currentThread();
            events.add("close");
        }

        @Override
        public String roleName() {
            return "test-engine";
        }
    }

    @Test
    void runsDutyCyclesOnItsOwnThreadAndClosesCleanly() {
        TestAgent agent = new TestAgent(-1, null);
        Doorbell bell = new Doorbell();
        EngineCounters counters = new EngineCounters("engine-0", bell);
        AgentRunner runner = AgentRunner.builder(agent).idleStrategy(new ParkIdleStrategy(bell, HOUR))
                .counters(counters).build().start();
        Deadline.await("100 busy cycles and a park", 5_000, () -> agent.cycles.get() >= 100 && bell.parks() >= 1);
        Thread t = runner.thread();
        assertEquals("test-engine", t.getName());
        assertTrue(t.isDaemon());
        assertTrue(runner.isRunning());
        runner.close();                                   // must end the hour-long park and join
        assertFalse(t.isAlive(), "close joined the thread");
        assertFalse(runner.isRunning());
        assertEquals(List.of("start", "close"), agent.events);
        assertSame(t, agent.startThread);
        assertSame(t, agent.closeThread);
        assertNull(runner.failure());
        assertEquals(agent.cycles.get(), counters.view().get(EngineCounters.DUTY_CYCLES), "every cycle counted");
        assertTrue(counters.view().get(EngineCounters.IDLE_PARKS) >= 1);
        runner.close();                                   // idempotent
        assertThrows(IllegalStateException.class, runner::start, "a closed runner does not restart");
    }

    @Test
    void doWorkFailureIsRecordedReportedAndRethrownByClose() {
        IllegalStateException boom = new IllegalStateException("boom");
        TestAgent agent = new TestAgent(5, boom);
        List<AgentFailedException> reported = new CopyOnWriteArrayList<>();
        AgentRunner runner = AgentRunner.builder(agent).idleStrategy(new ParkIdleStrategy(new Doorbell(), HOUR))
                .errorHandler(reported::add).build().start();
        Deadline.await("the agent to fail and stop", 5_000, () -> !runner.isRunning() && !runner.thread().isAlive());
        assertEquals(1, reported.size(), "reported once");
        AgentFailedException f = runner.failure();
        assertSame(reported.getFirst(), f);
        assertSame(boom, f.getCause());
        assertEquals("test-engine", f.roleName());
        assertTrue(f.getMessage().contains("test-engine") && f.getMessage().contains("doWork at duty cycle 5")
                && f.getMessage().contains("boom"), f.getMessage());
        assertEquals(List.of("start", "close"), agent.events, "onClose still runs after a failure");
        assertEquals(5, agent.cycles.get(), "no cycle after the failure");
        AgentFailedException thrown = assertThrows(AgentFailedException.class, runner::close);
        assertSame(f, thrown);
        runner.close();                                   // thrown once; a second close is quiet
    }

    @Test
    void onStartFailureSkipsTheLoopButStillCloses() {
        Agent agent = new Agent() {
            final List<String> events = new CopyOnWriteArrayList<>();

            @Override
            public void onStart() {
                throw new IllegalArgumentException("no socket");
            }

            @Override
            public int doWork() {
                throw new AssertionError("doWork must not run after onStart failed");
            }

            @Override
            public void onClose() {
                events.add("close");
            }

            @Override
            public String roleName() {
                return "bad-start";
            }

            @Override
            public String toString() {
                return events.toString();
            }
        };
        AgentRunner runner = AgentRunner.builder(agent).idleStrategy(new ParkIdleStrategy(new Doorbell(), HOUR))
                .build().start();
        AgentFailedException f = assertThrows(AgentFailedException.class, runner::close);
        assertTrue(f.getMessage().contains("in onStart"), f.getMessage());
        assertEquals("[close]", agent.toString());
    }

    @Test
    void onCloseFailureIsReported() {
        Agent agent = new Agent() {
            @Override
            public int doWork() {
                return 0;
            }

            @Override
            public void onClose() {
                throw new IllegalStateException("leak");
            }

            @Override
            public String roleName() {
                return "bad-close";
            }
        };
        AgentRunner runner = AgentRunner.builder(agent).idleStrategy(new ParkIdleStrategy(new Doorbell(), HOUR))
                .build().start();
        AgentFailedException f = assertThrows(AgentFailedException.class, runner::close);
        assertTrue(f.getMessage().contains("in onClose") && f.getMessage().contains("leak"), f.getMessage());
    }

    /**
     * A doWork that blocks (against the rules) cannot hang close: it is interrupted, then reported.
     * The short close timeout only says when to interrupt; how soon the interrupted thread gets to
     * run is the scheduler's business (slow here on purpose, as on a loaded machine), and close
     * waits for it rather than failing on a clock.
     */
    @Test
    void closeInterruptsABlockingAgent() throws InterruptedException {
        CountDownLatch blocking = new CountDownLatch(1);
        Agent agent = new Agent() {
            @Override
            public int doWork() throws InterruptedException {
                blocking.countDown();
                try {
                    Thread.sleep(TimeUnit.HOURS.toMillis(1));   // the bug under test, not a synchronisation
                } catch (InterruptedException e) {
                    // a thread that, interrupted, takes a while to get going again
                    long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(500);
                    while (System.nanoTime() - until < 0) {
                        Thread.onSpinWait();
                    }
                    throw e;
                }
                return 0;
            }

            @Override
            public String roleName() {
                return "blocker";
            }
        };
        AgentRunner runner = AgentRunner.builder(agent).idleStrategy(new ParkIdleStrategy(new Doorbell(), HOUR))
                .closeTimeout(Duration.ofMillis(50)).build().start();
        assertTrue(blocking.await(5, TimeUnit.SECONDS), "doWork entered");
        AgentFailedException f = assertThrows(AgentFailedException.class, runner::close);
        assertTrue(f.getCause() instanceof InterruptedException, "the interrupt surfaced as the failure: " + f);
        assertFalse(runner.thread().isAlive());
    }

    @Test
    void closeBeforeStartAndBuilderChecks() {
        TestAgent agent = new TestAgent(-1, null);
        AgentRunner runner = AgentRunner.builder(agent).idleStrategy(new ParkIdleStrategy(new Doorbell(), HOUR)).build();
        runner.close();
        assertNull(runner.thread());
        assertEquals(List.of(), agent.events, "a runner never started does not touch the agent");
        assertThrows(IllegalArgumentException.class, () -> AgentRunner.builder(agent).build(), "idle strategy required");
        assertThrows(IllegalArgumentException.class, () -> AgentRunner.builder(null));
        assertThrows(IllegalArgumentException.class, () -> AgentRunner.builder(agent).cpu(-2));
        assertThrows(IllegalArgumentException.class, () -> AgentRunner.builder(agent).closeTimeout(Duration.ZERO));
    }

    /** An agent may stop itself by closing its runner from doWork: no deadlock with a concurrent close. */
    @Test
    void agentMayCloseItsOwnRunner() {
        AgentRunner[] self = new AgentRunner[1];
        CountDownLatch built = new CountDownLatch(1);
        AtomicLong cycles = new AtomicLong();
        Agent agent = new Agent() {
            @Override
            public int doWork() throws InterruptedException {
                built.await();
                if (cycles.incrementAndGet() == 10) {
                    self[0].close();
                }
                return 1;
            }

            @Override
            public String roleName() {
                return "self-closing";
            }
        };
        self[0] = AgentRunner.builder(agent).idleStrategy(new ParkIdleStrategy(new Doorbell(), HOUR)).build().start();
        built.countDown();
        Deadline.await("the agent to stop itself", 5_000, () -> !self[0].thread().isAlive());
        assertEquals(10, cycles.get());
        self[0].close();
        assertNull(self[0].failure());
    }
}
