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
}
