package org.jwarp.engine.notify;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import org.jwarp.engine.idle.BackoffIdleStrategy;
import org.jwarp.engine.idle.IdleStrategy;
import org.jwarp.engine.idle.ParkIdleStrategy;
import org.jwarp.engine.provider.JwarpConfig.Backoff;
import org.jwarp.engine.testing.Deadline;
import org.jwarp.verbs.CounterNames;
import org.jwarp.verbs.Counters;
import org.junit.jupiter.api.Test;

class DoorbellTest {

    /** An hour: a park that only an unpark can end within the test's deadline. */
    private static final long HOUR = TimeUnit.HOURS.toNanos(1);

    @Test
    void ringOnAnAwakeEngineSendsNoWakeup() {
        Doorbell bell = new Doorbell();
        assertFalse(bell.consume(), "nothing rung yet");
        bell.ring();
        bell.ring();
        assertTrue(bell.isPending());
        assertEquals(2, bell.rung());
        assertEquals(0, bell.wakeups(), "the engine was not asleep");
        assertTrue(bell.consume());
        assertFalse(bell.consume(), "consume clears the flag");
    }

    @Test
    void parkReturnsAtOnceWhenARingIsPending() {
        Doorbell bell = new Doorbell();
        bell.ring();
        bell.park(HOUR);                                  // would hang the test if it parked
        assertEquals(0, bell.parks(), "a pending ring skips the park");
        assertTrue(bell.isPending(), "park does not consume");
    }

    @Test
    void countersViewNamesTheStandardCounters() {
        Doorbell bell = new Doorbell();
        bell.ring();
        Counters c = bell.counters("engine-0");
        assertEquals(1, c.get(CounterNames.DOORBELLS));
        assertEquals(0, c.get(CounterNames.WAKEUPS));
        assertEquals(0, c.get("idle.parks"));
        assertEquals(-1, c.indexOf("nope"));
    }

    /**
     * The wake-up path: an engine thread parked for an hour through the doorbell (PARK strategy)
     * is woken by one ring, and exactly one unpark is counted.
     */
    @Test
    void ringWakesAParkedEngine() throws InterruptedException {
        Doorbell bell = new Doorbell();
        IdleStrategy idle = new ParkIdleStrategy(bell, HOUR);
        CountDownLatch woke = new CountDownLatch(1);
        Thread engine = new Thread(() -> {
            while (!bell.consume()) {                    // one duty cycle: is there work?
                idle.idle(0);
            }
            woke.countDown();
        }, "doorbell-engine");
        engine.setDaemon(true);
        engine.start();
        Deadline.await("the engine to park", 5_000, () -> bell.parks() >= 1 && engine.getState() == Thread.State.TIMED_WAITING);
        bell.ring();
        assertTrue(woke.await(5, TimeUnit.SECONDS), "the ring woke the parked engine");
        engine.join(5_000);
        assertEquals(1, bell.wakeups());
        assertEquals(1, bell.rung());
    }

    /**
     * No lost wake-ups: a poster rings 20,000 times, each time waiting until the engine has seen
     * the previous ring, while the engine idles with a backoff that parks for up to an hour after a
     * single spin. A lost wake-up would leave the engine parked and fail the deadline.
     */
    @Test
    void noLostWakeupsUnderRacingRingsAndParks() throws InterruptedException {
        Doorbell bell = new Doorbell();
        IdleStrategy idle = new BackoffIdleStrategy(bell, new Backoff(1, 0, HOUR, HOUR));
        AtomicInteger seen = new AtomicInteger();
        int rings = 20_000;
        Thread engine = new Thread(() -> {
            while (seen.get() < rings) {
                if (bell.consume()) {
                    seen.incrementAndGet();
                    idle.idle(1);
                } else {
                    idle.idle(0);
                }
            }
        }, "doorbell-race-engine");
        engine.setDaemon(true);
        engine.start();
        try {
            for (int i = 1; i <= rings; i++) {
                bell.ring();
                int expect = i;
                long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(5);
                while (seen.get() < expect) {
                    if (System.nanoTime() - deadline > 0) {
                        throw new AssertionError("ring " + i + " was lost: the engine is still parked ("
                                + bell + ")");
                    }
                    Thread.onSpinWait();
                }
            }
        } finally {
            bell.ring();                                  // never leave the engine parked for an hour
            engine.join(5_000);
        }
        assertFalse(engine.isAlive());
        assertEquals(rings + 1, bell.rung());
        // An unpark goes to an engine that is parked or about to decide whether to park (it may then
        // see the ring and skip the park: the Dekker race resolved in the engine's favour).
        assertTrue(bell.wakeups() <= bell.rung(), "at most one unpark per ring");
        assertTrue(bell.wakeups() > 0 && bell.parks() > 0, "the race was exercised: " + bell);
    }

    @Test
    void wakeWaiterEndsAParkWithoutMarkingWork() throws InterruptedException {
        Doorbell bell = new Doorbell();
        CountDownLatch woke = new CountDownLatch(1);
        Thread waiter = new Thread(() -> {
            bell.park(HOUR);
            woke.countDown();
        }, "doorbell-waiter");
        waiter.setDaemon(true);
        waiter.start();
        Deadline.await("the waiter to park", 5_000, () -> bell.parks() >= 1 && waiter.getState() == Thread.State.TIMED_WAITING);
        bell.wakeWaiter();
        assertTrue(woke.await(5, TimeUnit.SECONDS));
        assertFalse(bell.isPending());
        waiter.join(5_000);
    }
}
