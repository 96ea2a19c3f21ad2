package org.jwarp.degen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class WakeMarginTest {

    @Test
    void startsAtTheMaximumAndSettlesOnTheObservedLateness() {
        WakeMargin m = new WakeMargin(10_000, 500_000);
        assertEquals(500_000, m.margin());
        for (int i = 0; i < 2000; i++) {
            m.onWake(60_000);
        }
        assertEquals(60_000, m.margin(), 1_000);
    }

    @Test
    void aLateWakeUpRaisesTheMarginAtOnceAndItRelaxesSlowly() {
        WakeMargin m = new WakeMargin(10_000, 500_000);
        for (int i = 0; i < 2000; i++) {
            m.onWake(50_000);
        }
        m.onWake(300_000);
        assertEquals(300_000, m.margin());
        m.onWake(50_000);
        assertTrue(m.margin() > 290_000, "one early wake-up must not undo a late one: " + m.margin());
    }

    @Test
    void staysWithinItsBounds() {
        WakeMargin m = new WakeMargin(10_000, 200_000);
        m.onWake(5_000_000);
        assertEquals(200_000, m.margin());
        for (int i = 0; i < 5000; i++) {
            m.onWake(0);
        }
        assertEquals(10_000, m.margin());
    }
}
