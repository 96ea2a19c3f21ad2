package org.jwarp.degen;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.jwarp.degen.DirectionStats.Counter;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The stats file: what the router counts is what a reader (status, the benchmark) gets back. */
class StatsSnapshotTest {

    @Test
    void countersAndHistogramsSurviveTheFileAndSnapshotsSubtract(@TempDir Path dir) throws Exception {
        DirectionStats a2b = new DirectionStats("a2b");
        DirectionStats b2a = new DirectionStats("b2a");
        a2b.add(Counter.RX_PACKETS, 7);
        a2b.add(Counter.TX_BYTES, 1500);
        b2a.add(Counter.DROP_LOSS, 2);
        for (int i = 1; i <= 100; i++) {
            a2b.recordDelayError(i * 1_000L);
        }
        Path file = dir.resolve("stats");
        StatsReporter reporter = new StatsReporter(new DirectionStats[] {a2b, b2a}, new String[] {"x", "y"},
                Map.of("router.spin_margin_ns", () -> 42_000L), file, 1_000_000_000L);
        StatsSnapshot first = reporter.publish();
        for (int i = 0; i < 50; i++) {
            a2b.recordDelayError(5_000_000L);
        }
        reporter.publish();
        StatsSnapshot read = StatsSnapshot.read(file);

        assertEquals(7, read.counter("a2b", Counter.RX_PACKETS));
        assertEquals(1500, read.counter("a2b", Counter.TX_BYTES));
        assertEquals(2, read.counter("b2a", Counter.DROP_LOSS));
        assertEquals(42_000, read.gauge("router.spin_margin_ns"));
        assertEquals(150, read.delayErrors("a2b").getTotalCount(), "cumulative across publications");
        Histogram interval = read.delayErrors("a2b");
        interval.subtract(first.delayErrors("a2b"));
        assertEquals(50, interval.getTotalCount(), "the difference of two snapshots is the interval between them");
        assertEquals(5_000_000, interval.getValueAtPercentile(50), 5_000_000 / 500.0);
        String text = read.render();
        assertTrue(text.contains("a2b") && text.contains("spin margin 42.0 us"), text);
        try (var files = Files.list(dir)) {
            assertTrue(files.noneMatch(p -> p.getFileName().toString().endsWith(".tmp")), "no temp file left");
        }
    }

    @Test
    void aLinkThatDifferedFromTheOneAskedForIsNamed() {
        DirectionStats a2b = new DirectionStats("a2b");
        DirectionStats b2a = new DirectionStats("b2a");
        for (int i = 0; i < 1000; i++) {
            a2b.recordDelayError(i < 995 ? 5_000L : 2_000_000L);
            b2a.recordDelayError(5_000L);
        }
        StatsSnapshot good = snapshot(a2b, b2a);
        assertEquals(java.util.Optional.empty(), good.deviation(100_000L), "p99 of 5 us is within 100 us");
        // the next snapshot holds what came after: 20 late packets, and drops nobody asked for
        for (int i = 0; i < 20; i++) {
            a2b.recordDelayError(2_000_000L);
        }
        b2a.add(Counter.DROP_QUEUE, 3);
        String d = snapshot(a2b, b2a).deviation(100_000L).orElseThrow();
        assertTrue(d.startsWith("a2b delay error p99 2.0") && d.contains(" ms > 100.0 us"), d);
        assertTrue(d.endsWith("b2a 3 packets dropped or not sent (queue, TUN, MTU, errors)"), d);
    }

    private static StatsSnapshot snapshot(DirectionStats a2b, DirectionStats b2a) {
        Histogram[] h = {a2b.takeDelayErrors(null), b2a.takeDelayErrors(null)};
        return StatsSnapshot.of(1, new String[] {"x", "y"}, new DirectionStats[] {a2b, b2a}, h, Map.of());
    }
}
