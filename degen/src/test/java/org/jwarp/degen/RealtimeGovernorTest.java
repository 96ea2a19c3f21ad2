package org.jwarp.degen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class RealtimeGovernorTest {

    private static final long W = RealtimeGovernor.WINDOW_NANOS;

    @Test
    void aMostlySleepingRouterStaysRealtimeAndSpins() {
        RealtimeGovernor g = new RealtimeGovernor(true);
        for (int i = 0; i < 100; i++) {
            g.onWindow(W, W / 2, W / 10);
            assertTrue(g.realtime());
            assertFalse(g.spinCapped());
        }
        assertEquals(0, g.demotions());
    }

    @Test
    void spinningIsGivenUpBeforeRealtime() {
        RealtimeGovernor g = new RealtimeGovernor(true);
        g.onWindow(W, W / 20, W / 2); // 95 % on the CPU, half of it spinning
        assertTrue(g.realtime(), "the work alone (45 %) does not need demotion");
        assertTrue(g.spinCapped(), "but the spin must go, or the kernel throttles the thread");
        g.onWindow(W, W / 3, 0);
        assertTrue(g.spinCapped(), "67 % on the CPU: not yet room to spin again");
        g.onWindow(W, 3 * W / 4, 0);
        assertFalse(g.spinCapped(), "25 % on the CPU: spinning again");
    }

    @Test
    void aRouterSaturatedByWorkLeavesRealtimeAndComesBackWithHysteresis() {
        RealtimeGovernor g = new RealtimeGovernor(true);
        g.onWindow(W, W / 20, 0);
        assertFalse(g.realtime(), "95 % forwarding: demoted before the kernel's 95 % limit");
        assertEquals(1, g.demotions());
        g.onWindow(W, W / 3, 0);
        assertFalse(g.realtime(), "67 % busy: not back yet");
        g.onWindow(W, 2 * W / 3, 0);
        assertTrue(g.realtime(), "33 % busy: back to real-time");
    }

    @Test
    void aRouterThatStartsNormalStaysNormalWhenNotAllowedRealtime() {
        RealtimeGovernor g = new RealtimeGovernor(false);
        g.onWindow(W, W, 0);
        assertTrue(g.realtime(), "the governor only advises; the router asks it only when real-time was granted");
    }
}
