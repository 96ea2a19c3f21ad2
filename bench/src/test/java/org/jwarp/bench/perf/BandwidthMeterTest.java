package org.jwarp.bench.perf;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class BandwidthMeterTest {

    private static final long MB = 1 << 20;

    @Test
    void thePeakIsTheBestWindowOfAtLeastATenthOfTheBytes() {
        BandwidthMeter m = new BandwidthMeter();
        m.start(0);
        // 100 x 1 MiB: 1 ms each, except ten in a row at 0.5 ms each
        long t = 0;
        for (int i = 0; i < 100; i++) {
            t += i >= 40 && i < 56 ? 500_000 : 1_000_000;
            m.completed(t, MB);
        }
        assertEquals(100 * MB, m.totalBytes());
        // the window must hold 16 MiB (the floor): exactly the fast stretch, 16 MiB in 8 ms
        assertEquals(16.0 * MB / 0.008, m.peakBytesPerSecond(), 1e-6 * MB);
    }

    @Test
    void aRunSmallerThanTheFloorReportsItsWholeRate() {
        BandwidthMeter m = new BandwidthMeter();
        m.start(1_000);
        m.completed(1_000, 4096); // reaped in the same instant: not an infinite rate
        m.completed(2_001_000, 4096);
        assertEquals(8192 / 0.002, m.peakBytesPerSecond(), 1e-6);
    }

    @Test
    void aLongRunIsThinnedNotTruncated() {
        BandwidthMeter m = new BandwidthMeter();
        m.start(0);
        for (int i = 1; i <= 300_000; i++) {
            m.completed(i * 1_000L, MB);
        }
        assertEquals(300_000 * MB, m.totalBytes());
        assertEquals(MB * 1e6, m.peakBytesPerSecond(), 1e-6 * MB * 1e6);
    }

    @Test
    void nothingCompletedIsZero() {
        BandwidthMeter m = new BandwidthMeter();
        m.start(5);
        assertEquals(0, m.peakBytesPerSecond());
    }
}
