package org.jwarp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

/** When a scale run's keepalive probes may overflow loopback's backlog, and what the line says. */
class LoopbackBacklogTest {

    @Test
    void runsTheBacklogCarriesGetNoLine() {
        assertNull(LoopbackBacklog.warning(2000, 60, 1000));
        assertNull(LoopbackBacklog.warning(4000, 60, 1000));
        assertNull(LoopbackBacklog.warning(100_000, 60, 262_144));
    }

    @Test
    void withoutKeepaliveThereIsNoBurst() {
        assertNull(LoopbackBacklog.warning(100_000, 0, 1000));
    }

    @Test
    void aLargeRunOnASmallBacklogSaysHowToRaiseItOrTurnKeepaliveOff() {
        String line = LoopbackBacklog.warning(100_000, 60, 1000);
        assertEquals("jwarp scale: 100000 QPs' keepalive probes come in bursts that loopback's backlog of 1000 packets"
                + " drops, and idle connections may end as lost: raise it (sysctl -w net.core.netdev_max_backlog=200000)"
                + " or run with --peer-timeout 0", line);
    }

    @Test
    void thisHostSaysItsBacklog() {
        assertTrue(LoopbackBacklog.read().orElse(1) > 0);
    }
}
