package org.jwarp.degen.testbed;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import org.HdrHistogram.Histogram;
import org.jwarp.degen.DirectionStats.Counter;
import org.jwarp.degen.LinkParams;
import org.jwarp.degen.RouterTuning;
import org.jwarp.degen.StatsSnapshot;
import org.jwarp.degen.sys.Ip;
import org.jwarp.degen.sys.Libc;
import org.jwarp.degen.sys.Netns;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * The real testbed, as root: RTT through degen grows by 2 × delay, a 100 Mb/s limit gives 100 Mb/s,
 * and nothing is left behind. The tolerances are generous (this runs on a noisy 2-core machine
 * next to other jobs); the precise figures are the benchmark's ({@code jwarp degen bench}).
 * The testbed gets a name of its own, so it never meets a user's testbed or another run's.
 */
@Tag("netns")
class TestbedNetnsTest {

    private static final long MS = 1_000_000L;
    private static final String NAME = "jwt" + (ProcessHandle.current().pid() % 100_000);
    private static final Testbed TB = new Testbed(NAME);

    @BeforeAll
    static void requireRoot() {
        assumeTrue(Libc.geteuid() == 0, "skipped: the testbed test needs root (network namespaces, TUN); CI runs it as root");
        assumeTrue(Ip.onPath("ip"), "skipped: iproute2's 'ip' is not on the PATH");
        assumeTrue(Files.exists(Path.of("/dev/net/tun")), "skipped: /dev/net/tun is missing (no TUN support)");
    }

    @AfterAll
    static void nothingIsLeftBehind() throws IOException {
        if (Libc.geteuid() != 0) {
            return;
        }
        TB.down(); // a no-op when the tests cleaned up, the safety net when one failed half-way
        Topology t = TB.topologyFor(1500, 1500);
        assertFalse(Netns.exists(t.nsA()) || Netns.exists(t.nsB()), "namespaces left behind");
        assertFalse(Ip.ip("-o", "link", "show").contains(NAME + "-"), "interfaces left behind");
    }

    private void up(LinkParams p) throws IOException {
        TB.up(Emulator.DEGEN, TB.config(p, p, 1500, 1500, RouterTuning.DEFAULT, 1), null);
    }

    private static double medianRttNanos(int warmup, int count) throws IOException {
        Topology t = TB.topologyFor(1500, 1500);
        Histogram h = NetProbe.pingPong(t.nsA(), t.nsB(), t.addrB(), 5301, warmup, count, 64);
        return h.getValueAtPercentile(50);
    }

    @Test
    void roundTripGrowsByTwiceTheDelay() throws IOException {
        long[] delays = {0, 1 * MS, 10 * MS};
        double[] rtt = new double[delays.length];
        for (int i = 0; i < delays.length; i++) {
            up(LinkParams.passThrough().withDelay(delays[i]));
            try {
                rtt[i] = delays[i] >= 10 * MS ? medianRttNanos(20, 60) : medianRttNanos(200, 300);
                StatsSnapshot s = awaitStatsWithPackets();
                for (String dir : StatsSnapshot.DIRECTIONS) {
                    long rx = s.counter(dir, Counter.RX_PACKETS);
                    assertTrue(rx >= 60, dir + " forwarded only " + rx + " packets");
                }
            } finally {
                TB.down();
            }
            assertFalse(Netns.exists(TB.topologyFor(1500, 1500).nsA()), "down removes host A");
        }
        for (int i = 1; i < delays.length; i++) {
            double increase = rtt[i] - rtt[0];
            double expected = 2.0 * delays[i];
            double tolerance = Math.max(0.5 * MS, 0.2 * expected);
            String msg = String.format(Locale.ROOT, "delay %d ms: RTT %.3f ms vs %.3f ms at 0 ms, increase %.3f ms, expected %.3f ± %.3f ms",
                    delays[i] / MS, rtt[i] / 1e6, rtt[0] / 1e6, increase / 1e6, expected / 1e6, tolerance / 1e6);
            System.out.println("testbed: " + msg);
            assertTrue(Math.abs(increase - expected) <= tolerance, msg);
        }
    }

    @Test
    void aBulkTransferRunsAtTheRateLimit() throws IOException {
        long rate = 100_000_000L;
        LinkParams p = LinkParams.passThrough().withRate(rate);
        up(p);
        double goodput;
        try {
            Topology t = TB.topologyFor(1500, 1500);
            goodput = NetProbe.bulk(t.nsA(), t.nsB(), t.addrB(), 5302, 700 * MS, 2000 * MS).bitsPerSecond();
        } finally {
            TB.down();
        }
        System.out.printf(Locale.ROOT, "testbed: 100 Mb/s limit: goodput %.2f Mb/s%n", goodput / 1e6);
        // Full-sized segments carry 1448 payload bytes (timestamps on) in 1500 + 38 bytes on the emulated Ethernet.
        double expected = rate * 1448.0 / (1500 + p.overheadBytes());
        assertEquals(expected, goodput, 0.08 * expected,
                String.format(Locale.ROOT, "goodput %.2f Mb/s, expected %.2f Mb/s", goodput / 1e6, expected / 1e6));
    }

    @Test
    void upOverAStaleTestbedCleansItFirst() throws IOException {
        Topology t = TB.topologyFor(1500, 1500);
        // What a crash between 'ip netns add' and degen's start leaves: hosts, no live process.
        HostNetwork.createNamespace(t.nsA());
        HostNetwork.createNamespace(t.nsB());
        try {
            up(LinkParams.passThrough());
            assertTrue(TB.status().contains("running"), TB.status());
        } finally {
            TB.down();
        }
        assertFalse(Netns.exists(t.nsA()) || Netns.exists(t.nsB()));
    }

    private static StatsSnapshot awaitStatsWithPackets() throws IOException {
        long deadline = System.nanoTime() + 5_000 * MS;
        while (System.nanoTime() - deadline < 0) {
            var s = TB.stats();
            if (s.isPresent() && s.get().counter("b2a", Counter.TX_PACKETS) >= 60) {
                return s.get();
            }
            java.util.concurrent.locks.LockSupport.parkNanos(20 * MS);
        }
        throw new AssertionError("degen's statistics never showed the ping-pong's packets");
    }
}
