package org.jwarp.engine.idle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;

import org.jwarp.engine.provider.JwarpConfig.Backoff;
import org.jwarp.engine.provider.JwarpConfig.IdleStrategyKind;
import org.jwarp.engine.provider.JwarpConfig;
import org.junit.jupiter.api.Test;

class BackoffIdleStrategyTest {

    /** Records park requests instead of parking. */
    private static final class RecordingParker implements Parker {
        final List<Long> parks = new ArrayList<>();

        @Override
        public void park(long nanos) {
            parks.add(nanos);
        }
    }

    @Test
    void spinsThenYieldsThenParksWithDoublingTimesUpToTheMaximum() {
        RecordingParker parker = new RecordingParker();
        BackoffIdleStrategy idle = new BackoffIdleStrategy(parker, new Backoff(3, 2, 1_000, 5_000));
        for (int i = 0; i < 5; i++) {
            idle.idle(0);
        }
        assertEquals(List.of(), parker.parks, "3 spins and 2 yields do not park");
        for (int i = 0; i < 5; i++) {
            idle.idle(0);
        }
        assertEquals(List.of(1_000L, 2_000L, 4_000L, 5_000L, 5_000L), parker.parks);
    }

    @Test
    void workResetsTheSequence() {
        RecordingParker parker = new RecordingParker();
        BackoffIdleStrategy idle = new BackoffIdleStrategy(parker, new Backoff(1, 0, 100, 10_000));
        idle.idle(0);
        idle.idle(0);
        idle.idle(0);
        assertEquals(List.of(100L, 200L), parker.parks);
        idle.idle(3);                                  // a cycle with work
        idle.idle(0);                                  // spins again
        idle.idle(0);
        assertEquals(List.of(100L, 200L, 100L), parker.parks, "the park time restarts at the minimum");
        idle.reset();
        idle.idle(0);
        assertEquals(3, parker.parks.size(), "reset returns to spinning");
    }

    @Test
    void parkStrategyParksEveryIdleCycleForTheBound() {
        RecordingParker parker = new RecordingParker();
        ParkIdleStrategy idle = new ParkIdleStrategy(parker, 7_000);
        idle.idle(1);
        idle.idle(0);
        idle.idle(0);
        assertEquals(List.of(7_000L, 7_000L), parker.parks);
        assertThrows(IllegalArgumentException.class, () -> new ParkIdleStrategy(parker, 0));
        assertThrows(IllegalArgumentException.class, () -> new ParkIdleStrategy(null, 1));
    }

    @Test
    void busySpinNeverParks() {
        BusySpinIdleStrategy.INSTANCE.idle(0);
        BusySpinIdleStrategy.INSTANCE.idle(1);
        assertEquals("spin", BusySpinIdleStrategy.INSTANCE.alias());
    }

    @Test
    void factoryFollowsTheConfiguration() {
        RecordingParker parker = new RecordingParker();
        Backoff backoff = new Backoff(0, 0, 10, 40);
        assertSame(BusySpinIdleStrategy.INSTANCE, IdleStrategies.create(IdleStrategyKind.SPIN, backoff, parker));
        IdleStrategy b = IdleStrategies.create(IdleStrategyKind.BACKOFF, backoff, parker);
        assertTrue(b instanceof BackoffIdleStrategy);
        b.idle(0);
        assertEquals(List.of(10L), parker.parks, "no spins or yields configured: parks at once");
        IdleStrategy p = IdleStrategies.create(IdleStrategyKind.PARK, backoff, parker);
        assertEquals(40, ((ParkIdleStrategy) p).parkNanos(), "PARK is bounded by the backoff maximum");
        JwarpConfig config = JwarpConfig.builder().availableProcessors(2).build();
        assertEquals("adaptive", IdleStrategies.create(config, parker).alias(), "the default is ADAPTIVE");
        assertTrue(IdleStrategies.create(IdleStrategyKind.BACKOFF, backoff, parker) instanceof BackoffIdleStrategy);
        assertThrows(IllegalArgumentException.class, () -> IdleStrategies.create(null, backoff, parker));
        assertThrows(IllegalArgumentException.class, () -> IdleStrategies.create(IdleStrategyKind.PARK, backoff, null));
    }

    @Test
    void adaptiveSpinsForItsSpinTimeThenParksUntilWorkComes() {
        RecordingParker parker = new RecordingParker();
        long[] now = {1_000};
        AdaptiveIdleStrategy a = new AdaptiveIdleStrategy(parker, 50_000, 1_000_000, () -> now[0]);
        for (int i = 0; i < 10_000; i++) {
            a.idle(0);                        // the clock stands still: within the spin time
        }
        assertEquals(List.of(), parker.parks, "no park while idle for less than the spin time");
        now[0] += 50_000;
        for (int i = 0; i <= AdaptiveIdleStrategy.SPINS_PER_CLOCK_READ; i++) {
            a.idle(0);                        // the next clock read sees the spin time over
        }
        assertEquals(List.of(1_000_000L), parker.parks, "parks for the longest park once the spin time is over");
        a.idle(1);                            // work: spin again before the next park
        for (int i = 0; i < 10_000; i++) {
            a.idle(0);
        }
        assertEquals(1, parker.parks.size(), "work restarts the spin time");
        assertThrows(IllegalArgumentException.class, () -> new AdaptiveIdleStrategy(parker, -1, 1));
        assertThrows(IllegalArgumentException.class, () -> new AdaptiveIdleStrategy(parker, 0, 0));
    }

    @Test
    void adaptiveTimesItsSpinFromTheFirstIdleCycle() {
        RecordingParker parker = new RecordingParker();
        long[] now = {1_000};
        AdaptiveIdleStrategy a = new AdaptiveIdleStrategy(parker, 50_000, 1_000_000, () -> now[0]);
        a.idle(0);                            // idle from now on
        now[0] += 50_000;                     // the spin time passes during slow cycles
        for (int i = 0; i < AdaptiveIdleStrategy.SPINS_PER_CLOCK_READ; i++) {
            a.idle(0);
        }
        assertEquals(List.of(1_000_000L), parker.parks, "the first clock read after the spin time parks");
    }

    @Test
    void deadlineParkerNeverParksPastTheNextDeadline() {
        RecordingParker parker = new RecordingParker();
        long[] deadline = {Long.MAX_VALUE};
        DeadlineParker bounded = new DeadlineParker(parker, () -> deadline[0]);
        bounded.park(1_000_000);
        deadline[0] = 30_000;
        bounded.park(1_000_000);
        bounded.park(10_000);
        deadline[0] = 0;
        bounded.park(1_000_000);                          // a deadline is due: no park at all
        assertEquals(List.of(1_000_000L, 30_000L, 10_000L), parker.parks);
        assertThrows(IllegalArgumentException.class, () -> new DeadlineParker(null, () -> 0));
    }
}
