package org.jwarp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.jwarp.bench.experiments.ExperimentProcesses;
import org.jwarp.bench.report.PerfDocument;
import org.jwarp.cli.faults.FlowRecord;
import org.jwarp.cli.faults.LinkOutage;
import org.jwarp.cli.faults.QpFlows;
import org.jwarp.cli.faults.SocketFlows;
import org.jwarp.degen.DirectionStats.Counter;
import org.jwarp.degen.JitterDistribution;
import org.jwarp.degen.LinkParams;
import org.jwarp.degen.RouterTuning;
import org.jwarp.degen.StatsSnapshot;
import org.jwarp.degen.sys.Ip;
import org.jwarp.degen.sys.Libc;
import org.jwarp.degen.testbed.Emulator;
import org.jwarp.degen.testbed.Testbed;
import org.jwarp.degen.testbed.Topology;
import org.jwarp.verbs.DeviceConfig;

/**
 * Faults of the link rather than the peer, between the testbed's two hosts joined by degen: loss,
 * reordering, duplication and jitter under jwarp's perf tests (verified data) and the same tests
 * over sockets; a link that goes down under traffic and comes back; a path with a 9000 and a 1500
 * hop. The short version (CI, under a minute) runs the verbs flows and their sockets counterparts
 * over one link with every fault at once, a 1 s cut and the 9000/1500 hop; {@code -Djwarp.faults=full}
 * adds the perf tests and runs every link, cut and hop (about 15 minutes), writing the tables to
 * {@code cli/target/link-faults.md} as well as to standard output.
 */
@Tag("netns")
class LinkFaultsTest {

    private static final boolean FULL = "full".equals(System.getProperty("jwarp.faults"));
    private static final String NAME = "jwl" + (ProcessHandle.current().pid() % 100_000);
    private static final Testbed TB = new Testbed(NAME);
    private static final long MS = 1_000_000L;
    private static final PrintWriter OUT = new PrintWriter(System.out, true, StandardCharsets.UTF_8);
    private static final List<String> TABLES = new ArrayList<>();

    private record Link(String name, LinkParams params, int mtuA, int mtuB) {
    }

    private record Perf(String test, String label, List<String> args) {
    }

    @BeforeAll
    static void capable() {
        assumeTrue(Libc.geteuid() == 0, "skipped: the testbed needs root (network namespaces); CI runs it as root");
        assumeTrue(Ip.onPath("ip"), "skipped: iproute2's 'ip' is not on the PATH");
    }

    @AfterAll
    static void down() throws IOException {
        if (TestbedCleanup.down(TB) && FULL && !TABLES.isEmpty()) {
            Files.writeString(Path.of("target", "link-faults.md"), String.join("\n\n", TABLES) + "\n");
        }
    }

    private static List<Link> links() {
        LinkParams none = LinkParams.passThrough();
        if (!FULL) {
            return List.of(new Link("loss 1 %, reorder 2 %, duplicate 2 %",
                    none.withLoss(0.01).withReorder(0.02).withDuplicate(0.02), 1500, 1500));
        }
        return List.of(new Link("clean", none, 1500, 1500),
                new Link("loss 0.1 %", none.withLoss(0.001), 1500, 1500),
                new Link("loss 1 %", none.withLoss(0.01), 1500, 1500),
                new Link("loss 5 %", none.withLoss(0.05), 1500, 1500),
                new Link("reorder 2 %", none.withReorder(0.02), 1500, 1500),
                new Link("duplicate 2 %", none.withDuplicate(0.02), 1500, 1500),
                new Link("delay 100 ms, jitter ±100 ms", none.withDelay(100 * MS).withJitter(100 * MS, JitterDistribution.UNIFORM),
                        1500, 1500));
    }

    private static List<Perf> perfs() {
        String d = "4";
        return List.of(new Perf("write-bw", "WRITE stream 64 KiB", List.of("-s", "65536", "-D", d)),
                new Perf("read-bw", "READ stream 64 KiB", List.of("-s", "65536", "-D", d)),
                new Perf("send-lat", "SEND ping-pong 4 KiB", List.of("-s", "4096", "-D", d)));
    }

    private static final List<String> TRANSPORTS = List.of("jwarp", "sockets-nio");

    @Test
    void lossReorderingDuplicationAndJitterLoseNoByteAndNoWorkRequest() throws Exception {
        StringBuilder perf = new StringBuilder("| link | test | jwarp -e | sockets-nio | jwarp / sockets | verified | "
                + "degen over the link's runs: dropped / reordered / duplicated |\n|---|---|---|---|---|---|---|\n");
        StringBuilder flows = new StringBuilder("| link | stack | flow | completed OK | failed | each exactly once | bytes checked "
                + "|\n|---|---|---|---|---|---|---|\n");
        for (Link link : links()) {
            Topology t = up(link);
            if (FULL) {
                perfRows(link, t, perf);
            }
            flowRows(link, t, flows);
            TB.down();
        }
        if (FULL) {
            report("Loss, reordering, duplication and jitter under perf tests (bandwidth: MB/s; latency: half the round "
                    + "trip, typical, and its p99; READ over sockets is a request/response of the same size; ratio: "
                    + "jwarp over sockets)", perf.toString());
        }
        report("The same links under the verbs flows and their sockets counterparts side by side (" + FLOW_SECONDS
                + " s; every request counted by its id, every READ, echo and stream message checked, the WRITE target's last "
                + "16 messages after a fencing READ)", flows.toString());
    }

    private static final int FLOW_SECONDS = FULL ? 5 : 3;

    private static void perfRows(Link link, Topology t, StringBuilder table) throws Exception {
        ExperimentProcesses.Hosts hosts = new ExperimentProcesses.Hosts(List.of("ip", "netns", "exec", t.nsB()),
                List.of("ip", "netns", "exec", t.nsA()), t.addressOf("B"));
        List<String[]> rows = new ArrayList<>();
        for (Perf p : perfs()) {
            double[] figure = new double[2];
            String[] text = new String[2];
            for (int i = 0; i < TRANSPORTS.size(); i++) {
                // jwarp waits on completion events (-e) as sockets-nio waits in its selector: on 2 CPUs two
                // busy-polling processes beside degen's real-time router would measure the CPUs, not the link
                List<String> both = i == 0 ? List.of("-e") : List.of();
                PerfDocument doc = ExperimentProcesses.perf(new CliJwarp(), hosts, p.test(), TRANSPORTS.get(i), both, p.args(), line -> { });
                assertTrue(doc.verified(), p.test() + " over " + TRANSPORTS.get(i) + " on " + link.name());
                PerfDocument.Row r = doc.first();
                if (r.latencyUs() != null) {
                    figure[i] = r.latencyUs().typical();
                    text[i] = time(r.latencyUs().typical()) + " (p99 " + time(r.latencyUs().p99()) + ")";
                } else {
                    figure[i] = r.bwAvgMbS();
                    text[i] = String.format(Locale.ROOT, "%.1f MB/s", r.bwAvgMbS());
                }
                OUT.printf(Locale.ROOT, "%s, %s, %s: %s, %d iterations, verified%n", link.name(), p.label(),
                        TRANSPORTS.get(i), text[i], r.iterations());
            }
            rows.add(new String[] {p.label(), text[0], text[1], String.format(Locale.ROOT, "%.2f", figure[0] / figure[1])});
        }
        String applied = applied(TB.stats().orElseThrow());
        for (String[] r : rows) {
            table.append("| ").append(link.name()).append(" | ").append(String.join(" | ", r))
                    .append(" | yes, both | ").append(applied).append(" |\n");
        }
    }

    private static String time(double us) {
        return us >= 1000 ? String.format(Locale.ROOT, "%.1f ms", us / 1000) : String.format(Locale.ROOT, "%.1f µs", us);
    }

    private static void flowRows(Link link, Topology t, StringBuilder table) throws Exception {
        try (QpFlows qp = QpFlows.open(t.nsA(), t.nsB(), t.addrB(), DeviceConfig.builder().build());
             SocketFlows so = SocketFlows.open(t.nsA(), t.nsB(), t.addrB())) {
            long end = System.nanoTime() + FLOW_SECONDS * 1000 * MS;
            java.util.function.BooleanSupplier keep = () -> System.nanoTime() < end;
            Thread sockets = Thread.ofPlatform().name("faults-socket-flows").start(() -> {
                try {
                    so.run(keep, 30_000);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            qp.run(keep);
            sockets.join();
            assertNull(qp.echoError(), link.name());
            List<FlowRecord> all = new ArrayList<>(qp.records());
            all.addAll(so.records());
            for (int i = 0; i < all.size(); i++) {
                FlowRecord r = all.get(i);
                String row = String.format(Locale.ROOT, "| %s | %s | %s | %d | %d | %s | %s |", link.name(), i < 3 ? "jwarp" : "sockets",
                        r.name, r.ok(), r.flushed() + r.failedOther(), r.exactlyOnce() ? "yes" : "NO",
                        r.mismatch() == null ? r.bytesVerified() / 1024 + " KiB, all match" : "MISMATCH: " + r.mismatch());
                table.append(row).append('\n');
                OUT.println(row);
                assertNull(r.error(), r.name + " on " + link.name());
                assertNull(r.mismatch(), r.name + " on " + link.name());
                assertTrue(r.exactlyOnce() && r.ok() > 0, r.name + " on " + link.name() + ": " + r.ok() + " of " + r.posted());
            }
        }
    }

    @Test
    void aLinkThatGoesDownAndComesBack() throws Exception {
        List<Long> cuts = FULL ? List.of(1_000 * MS, 10_000 * MS, 60_000 * MS) : List.of(1_000 * MS);
        StringBuilder table = new StringBuilder(LinkOutage.HEADER).append('\n');
        Topology t = up(new Link("clean", LinkParams.passThrough(), 1500, 1500));
        DeviceConfig config = DeviceConfig.builder().build(); // the default peer timeout, as a user gets it
        for (long cut : cuts) {
            List<LinkOutage.Row> rows = LinkOutage.run(TB, t, cut, 150_000 * MS, config, OUT);
            for (LinkOutage.Row r : rows) {
                table.append(r.markdown()).append('\n');
                OUT.println(r.markdown());
                assertTrue(r.exactlyOnce(), "every request completes exactly once: " + r);
                assertNull(r.mismatch(), "no byte differs: " + r);
                if (cut < config.peerTimeout().toNanos() / 2) {
                    assertEquals("carried on", r.outcome(), "a cut well within the peer timeout is ridden out: " + r);
                }
            }
        }
        TB.down();
        report("A link that goes down under traffic (degen drops every packet) and comes back; peer timeout "
                + config.peerTimeout().toSeconds() + " s (the default)", table.toString());
    }

    @Test
    void aPathWithA9000AndA1500HopStillPlacesAlignedFpdus() throws Exception {
        StringBuilder table = new StringBuilder("| host A MTU | host B MTU | flow | completed OK | each exactly once | bytes checked "
                + "| A's bytes per FPDU | B's bytes per FPDU |\n|---|---|---|---|---|---|---|---|\n");
        int[][] hops = FULL ? new int[][] {{1500, 1500}, {9000, 1500}, {1500, 9000}, {9000, 9000}} : new int[][] {{9000, 1500}};
        for (int[] hop : hops) {
            Topology t = up(new Link("mtu", LinkParams.passThrough(), hop[0], hop[1]));
            try (QpFlows flows = QpFlows.open(t.nsA(), t.nsB(), t.addrB(), DeviceConfig.builder().build())) {
                long end = System.nanoTime() + (FULL ? 5_000 : 2_000) * MS;
                flows.run(() -> System.nanoTime() < end);
                double[] perFpdu = flows.bytesPerFpdu();
                for (FlowRecord r : flows.records()) {
                    String row = String.format(Locale.ROOT, "| %d | %d | %s | %d | %s | %s | %.0f | %.0f |", hop[0], hop[1], r.name,
                            r.ok(), r.exactlyOnce() ? "yes" : "NO",
                            r.mismatch() == null ? r.bytesVerified() / 1024 + " KiB, all match" : "MISMATCH: " + r.mismatch(),
                            perFpdu[0], perFpdu[1]);
                    table.append(row).append('\n');
                    OUT.println(row);
                    assertNull(r.error(), r.name + " on " + hop[0] + "/" + hop[1]);
                    assertNull(r.mismatch(), r.name + " on " + hop[0] + "/" + hop[1]);
                    assertTrue(r.exactlyOnce() && r.ok() > 0, r.name + " on " + hop[0] + "/" + hop[1]);
                }
                assertNull(flows.echoError());
                // an FPDU longer than the path's MSS would span segments: the average shows it (RFC 5044 §8)
                int pathMss = Math.min(hop[0], hop[1]) - 20 - 20 - 12;
                assertTrue(perFpdu[0] <= pathMss && perFpdu[1] <= pathMss, "bytes per FPDU " + perFpdu[0] + ", " + perFpdu[1]
                        + " over a path whose MSS is " + pathMss);
                StatsSnapshot s = TB.stats().orElseThrow();
                assertEquals(0, s.counter("a2b", Counter.DROP_MTU) + s.counter("b2a", Counter.DROP_MTU),
                        "no packet too big for the next hop");
            }
            TB.down();
        }
        report("MTU along the path (degen drops what exceeds the next hop's MTU and sends no ICMP; bytes per FPDU: "
                + "bytes.tx / fpdus.tx of each host's device, every FPDU the WRITE, READ and SEND flows sent)", table.toString());
    }

    private static Topology up(Link link) throws IOException {
        TB.up(Emulator.DEGEN, TB.config(link.params(), link.params(), link.mtuA(), link.mtuB(), RouterTuning.DEFAULT, 1), null);
        return TB.topologyFor(link.mtuA(), link.mtuB());
    }

    private static String applied(StatsSnapshot s) {
        long dropped = 0;
        long reordered = 0;
        long duplicated = 0;
        for (String dir : StatsSnapshot.DIRECTIONS) {
            dropped += s.counter(dir, Counter.DROP_LOSS);
            reordered += s.counter(dir, Counter.REORDERED);
            duplicated += s.counter(dir, Counter.DUPLICATED);
        }
        return dropped + " / " + reordered + " / " + duplicated;
    }

    private static void report(String title, String table) {
        String text = "### " + title + "\n\n" + table;
        TABLES.add(text);
        OUT.println(text);
    }
}
