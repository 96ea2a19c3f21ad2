package org.jwarp.engine.counters;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The publisher's rest between rounds: the period while rounds are cheap, 99 rounds' time once they are not. */
class CounterPublisherTest {

    private static final long PERIOD = TimeUnit.MILLISECONDS.toNanos(200);

    @Test
    void aCheapRoundRestsThePeriod() {
        assertEquals(PERIOD, CounterPublisher.pauseAfter(TimeUnit.MICROSECONDS.toNanos(5), PERIOD));
        assertEquals(PERIOD, CounterPublisher.pauseAfter(0, PERIOD));
    }

    @Test
    void aRoundOfMoreThanAPercentOfThePeriodRestsNinetyNineTimesItsLength() {
        // 2 ms × 99 = 198 ms: still within the period
        assertEquals(PERIOD, CounterPublisher.pauseAfter(TimeUnit.MILLISECONDS.toNanos(2), PERIOD));
        assertEquals(TimeUnit.MILLISECONDS.toNanos(3 * 99), CounterPublisher.pauseAfter(TimeUnit.MILLISECONDS.toNanos(3), PERIOD));
        long slow = TimeUnit.MILLISECONDS.toNanos(120);
        assertEquals(TimeUnit.MILLISECONDS.toNanos(120 * 99), CounterPublisher.pauseAfter(slow, PERIOD));
    }

    @Test
    void anEndlessRoundDoesNotOverflow() {
        assertEquals(Long.MAX_VALUE, CounterPublisher.pauseAfter(Long.MAX_VALUE / 2, PERIOD));
    }
}
