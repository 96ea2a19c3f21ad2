package org.jwarp.cli;

import static org.junit.jupiter.api.Assertions.assertDoesNotThrow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.OptionalInt;
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
    void theDefaultTimeoutGoesWhereTheBacklogCannotCarryItsProbes() {
        LoopbackBacklog.Choice c = LoopbackBacklog.choose(100_000, null, 60, OptionalInt.of(1000));
        assertEquals(0, c.peerTimeoutSeconds());
        assertEquals("jwarp scale: keepalive off for this run (--peer-timeout 0): 100000 QPs' keepalive probes would"
                + " come in bursts that loopback's backlog of 1000 packets drops, ending idle connections as lost;"
                + " to run with it, raise the backlog (sysctl -w net.core.netdev_max_backlog=200000) and pass"
                + " --peer-timeout 60", c.line());
    }

    @Test
    void theDefaultTimeoutStaysWhereTheBacklogCarriesIt() {
        assertEquals(new LoopbackBacklog.Choice(60, null), LoopbackBacklog.choose(2000, null, 60, OptionalInt.of(1000)));
        assertEquals(new LoopbackBacklog.Choice(60, null),
                LoopbackBacklog.choose(100_000, null, 60, OptionalInt.of(262_144)));
        assertEquals(new LoopbackBacklog.Choice(60, null), LoopbackBacklog.choose(100_000, null, 60, OptionalInt.empty()));
    }

    @Test
    void anAskedTimeoutIsKeptWithTheWarning() {
        LoopbackBacklog.Choice c = LoopbackBacklog.choose(100_000, 30, 60, OptionalInt.of(1000));
        assertEquals(30, c.peerTimeoutSeconds());
        assertEquals(LoopbackBacklog.warning(100_000, 30, 1000), c.line());
        assertEquals(new LoopbackBacklog.Choice(0, null), LoopbackBacklog.choose(100_000, 0, 60, OptionalInt.of(1000)));
    }

    @Test
    void thisHostSaysItsBacklog() {
        // the whole value, as sysctl prints it (a read from an offset past 0 sees nothing)
        String said = new String(assertDoesNotThrow(() -> new ProcessBuilder("cat", LoopbackBacklog.SYSCTL.toString())
                .start().getInputStream().readAllBytes())).trim();
        assertEquals(OptionalInt.of(Integer.parseInt(said)), LoopbackBacklog.read());
    }
}
