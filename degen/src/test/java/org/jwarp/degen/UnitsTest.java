package org.jwarp.degen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class UnitsTest {

    @Test
    void durations() {
        assertEquals(10_000_000L, Units.parseDurationNanos("10ms"));
        assertEquals(250_000L, Units.parseDurationNanos("250us"));
        assertEquals(1_500_000L, Units.parseDurationNanos("1.5"));
        assertEquals(2_000_000_000L, Units.parseDurationNanos("2s"));
        assertEquals(0L, Units.parseDurationNanos("0"));
        assertEquals(7L, Units.parseDurationNanos("7ns"));
        assertTrue(assertThrows(IllegalArgumentException.class, () -> Units.parseDurationNanos("ten ms"))
                .getMessage().contains("such as 10ms"));
        assertThrows(IllegalArgumentException.class, () -> Units.parseDurationNanos("-1ms"));
    }

    @Test
    void rates() {
        assertEquals(100_000_000L, Units.parseRateBitsPerSecond("100mbit"));
        assertEquals(1_000_000_000L, Units.parseRateBitsPerSecond("1g"));
        assertEquals(1_000_000_000L, Units.parseRateBitsPerSecond("1Gb/s"));
        assertEquals(2_500_000L, Units.parseRateBitsPerSecond("2.5M"));
        assertEquals(0L, Units.parseRateBitsPerSecond("0"));
        assertThrows(IllegalArgumentException.class, () -> Units.parseRateBitsPerSecond("100"));
        assertThrows(IllegalArgumentException.class, () -> Units.parseRateBitsPerSecond("fast"));
    }

    @Test
    void bytesAndProbabilities() {
        assertEquals(1L << 20, Units.parseBytes("1m"));
        assertEquals(64L << 10, Units.parseBytes("64k"));
        assertEquals(1500L, Units.parseBytes("1500"));
        assertEquals(0.001, Units.parseProbability("0.1%"), 1e-12);
        assertEquals(0.25, Units.parseProbability("0.25"), 1e-12);
        assertThrows(IllegalArgumentException.class, () -> Units.parseProbability("150%"));
    }

    @Test
    void linkSpecsRoundTrip() {
        LinkParams p = LinkParams.passThrough().withDelay(12_345_678L).withJitter(1_000L, JitterDistribution.NORMAL)
                .withRate(123_456_789L).withOverhead(14).withLoss(0.0125).withQueueLimit(77_777);
        assertEquals(p, LinkParams.passThrough().withOverrides(p.toSpec()));
        assertEquals(5_000_000L, p.withOverrides("delay=5ms").delayNanos());
        assertThrows(IllegalArgumentException.class, () -> p.withOverrides("speed=1g"));
    }
}
