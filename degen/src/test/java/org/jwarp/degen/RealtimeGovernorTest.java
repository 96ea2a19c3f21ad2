package org.jwarp.degen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RealtimeGovernorTest {

    private static final long W = RealtimeGovernor.WINDOW_NANOS;

    @Test
    void aMostlySleepingRouterStaysRealtime() {
        RealtimeGovernor g = new RealtimeGovernor(true);
        for (int i = 0; i < 100; i++) {
            assertTrue(g.onWindow(W, W / 2));
        }
        assertEquals(0, g.demotions());
    }

    @Test
    void aSaturatedRouterLeavesRealtimeBeforeTheKernelThrottlesIt() {
        RealtimeGovernor g = new RealtimeGovernor(true);
        assertFalse(g.onWindow(W, W / 20), "95 % busy must demote at once: the kernel allows 95 % per second");
        assertEquals(1, g.demotions());
    }

    @Test
    void itReturnsWithHysteresis() {
        RealtimeGovernor g = new RealtimeGovernor(true);
        g.onWindow(W, 0);
        assertFalse(g.onWindow(W, W / 5), "80 % busy: still too busy to come back");
        assertTrue(g.onWindow(W, W / 2), "50 % busy: back to real-time");
    }
}
