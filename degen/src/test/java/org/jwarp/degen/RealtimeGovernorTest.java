package org.jwarp.degen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;
import org.jwarp.degen.RealtimeGovernor.Spin;

class RealtimeGovernorTest {

    private static final long W = RealtimeGovernor.WINDOW_NANOS;

    @Test
    void aMostlySleepingRouterStaysRealtimeAndSpins() {
        RealtimeGovernor g = new RealtimeGovernor(true);
        for (int i = 0; i < 100; i++) {
            g.onWindow(W, W / 2, W / 10);
            assertTrue(g.realtime());
            assertEquals(Spin.ADAPTIVE, g.spin());
        }
        assertEquals(0, g.demotions());
    }

    @Test
    void spinningIsGivenUpALevelAWindowBeforeRealtime() {
        RealtimeGovernor g = new RealtimeGovernor(true);
        g.onWindow(W, W / 20, W / 2); // 95 % on the CPU, half of it spinning
        assertTrue(g.realtime(), "the work alone (45 %) does not need demotion");
        assertEquals(Spin.MINIMUM, g.spin(), "but the spin must shrink, or the kernel throttles the thread");
        g.onWindow(W, W / 20, W / 5); // still 95 %: the minimum margin before every packet adds up
        assertTrue(g.realtime());
        assertEquals(Spin.NONE, g.spin(), "a steady stream: no spin at all");
        g.onWindow(W, 3 * W / 10, 0);
        assertEquals(Spin.NONE, g.spin(), "70 % on the CPU: not yet room to spin again");
        assertTrue(g.realtime(), "70 % of forwarding is no reason to leave real-time");
        g.onWindow(W, 3 * W / 4, 0);
        assertEquals(Spin.MINIMUM, g.spin(), "25 % on the CPU: the minimum margin again");
        g.onWindow(W, 3 * W / 4, W / 10);
        assertEquals(Spin.ADAPTIVE, g.spin(), "and then the measured one");
        assertEquals(0, g.demotions());
    }

    @Test
    void aRouterOnTheCpuNearTheKernelsLimitWithoutSpinningLeavesRealtime() {
        RealtimeGovernor g = new RealtimeGovernor(true);
        g.onWindow(W, W / 20, W / 2);
        g.onWindow(W, W / 20, W / 2);
        assertEquals(Spin.NONE, g.spin());
        assertTrue(g.realtime());
        g.onWindow(W, W / 20, W / 5); // 95 % on the CPU with nothing left to give up
        assertFalse(g.realtime(), "the kernel would freeze it for 50 ms at 95 %");
        assertEquals(1, g.demotions());
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
