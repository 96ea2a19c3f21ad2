package org.jwarp.degen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class WakeMarginTest {

    @Test
    void settlesOnAConstantLateness() {
        WakeMargin m = new WakeMargin(10_000, 500_000);
        for (int i = 0; i < 2000; i++) {
            m.onWake(60_000);
        }
        assertEquals(60_000, m.margin(), 1_000);
    }

    @Test
    void tracksAHighQuantileOfANoisyLateness() {
        // Lateness uniform in [40, 140] µs: the margin should settle near the 89th percentile (129 µs).
        WakeMargin m = new WakeMargin(10_000, 500_000);
        SplittableRandom rnd = new SplittableRandom(1);
        long sum = 0;
        int n = 0;
        for (int i = 0; i < 20_000; i++) {
            m.onWake(40_000 + rnd.nextLong(100_000));
            if (i >= 10_000) {
                sum += m.margin();
                n++;
            }
        }
        double mean = (double) sum / n;
        assertTrue(mean > 120_000 && mean < 138_000, "settled at " + mean);
    }

    @Test
    void oneStrayLateWakeUpDoesNotTakeTheMarginToTheMaximum() {
        WakeMargin m = new WakeMargin(10_000, 500_000);
        m.reset(60_000);
        m.onWake(3_000_000);
        assertTrue(m.margin() > 60_000 && m.margin() < 200_000, "after one 3 ms outlier: " + m.margin());
    }

    @Test
    void staysWithinItsBounds() {
        WakeMargin m = new WakeMargin(10_000, 200_000);
        for (int i = 0; i < 200; i++) {
            m.onWake(5_000_000);
        }
        assertEquals(200_000, m.margin(), 1_000);
        for (int i = 0; i < 20_000; i++) {
            m.onWake(0);
        }
        assertEquals(10_000, m.margin());
    }
}
