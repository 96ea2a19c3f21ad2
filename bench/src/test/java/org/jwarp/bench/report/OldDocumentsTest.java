package org.jwarp.bench.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.jwarp.bench.experiments.RunResult;
import org.jwarp.bench.json.JsonCodec;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Files written by the hand-written JSON writer jwarp had before Jackson (samples in
 * {@code old-format/}, as {@code jwarp write-lat --json}, {@code jwarp write-bw --json} and
 * {@code jwarp experiment rss} wrote them) are read, and written again byte for byte.
 */
class OldDocumentsTest {

    static Path sample(String name) throws Exception {
        return Path.of(OldDocumentsTest.class.getResource("/old-format/" + name).toURI());
    }

    @Test
    void aLatencyRunsDocumentReadsAndWritesAgainAsItWas() throws Exception {
        String old = Files.readString(sample("perf-write-lat.json"));
        PerfDocument doc = PerfDocument.parse("jwarp: some line before the document\n" + old, "write-lat");
        assertEquals("write-lat", doc.test());
        assertEquals("8", doc.settings().sizes());
        assertTrue(Double.isNaN(doc.settings().durationS()), "duration_s null: not timed");
        PerfDocument.Row row = doc.first();
        assertEquals(8, row.bytes());
        assertEquals(200, row.iterations());
        assertTrue(Double.isNaN(row.bwAvgGbS()), "no bandwidth in a latency test");
        assertTrue(row.latencyUs().min() > 0 && row.latencyUs().min() <= row.latencyUs().typical()
                && row.latencyUs().typical() <= row.latencyUs().p99_9());
        assertTrue(doc.verified() && row.verified());
        assertEquals(old.strip(), JsonCodec.write(doc));
    }

    @Test
    void aBandwidthRunsDocumentReadsAndWritesAgainAsItWas() throws Exception {
        String old = Files.readString(sample("perf-write-bw.json"));
        PerfDocument doc = PerfDocument.parse(old, "write-bw");
        PerfDocument.Row row = doc.first();
        assertNull(row.latencyUs());
        assertEquals(4.23484, row.bwAvgGbS());
        assertEquals(0.129237, row.msgRateMpps());
        assertEquals(41.976, row.cpu().clientAppPct());
        assertTrue(doc.setup().stream().anyMatch(l -> l.contains("CRC on")));
        assertEquals(old.strip(), JsonCodec.write(doc));
    }

    @Test
    void anOldExperimentDirectoryReads() throws Exception {
        RunResult e = ResultDirectory.read(sample("rss"));
        assertEquals("jwarp-experiment-rss/1", e.schema());
        assertEquals("rss", e.name());
        assertEquals(4, e.rows().size());
    }

    @Test
    void anotherSchemaOrVersionInResultsJsonIsOneLine(@TempDir Path dir) throws Exception {
        Files.copy(sample("rss/results.csv"), dir.resolve("results.csv"));
        Path json = dir.resolve("results.json");
        Files.copy(sample("perf-write-bw.json"), json);
        String known = String.join(", ", ResultDirectory.SCHEMAS);
        assertEquals(json + " is a jwarp-perf/1 document; expected one of " + known, error(dir));
        Files.writeString(json, Files.readString(sample("rss/results.json")).replace("jwarp-experiment-rss/1",
                "jwarp-experiment-rss/2"));
        assertEquals(json + " is jwarp-experiment-rss/2, a version this jwarp does not read; expected one of " + known,
                error(dir));
        Files.writeString(json, "{\"name\": \"something else\"}\n");
        assertEquals(json + " is JSON but no jwarp document (it names no \"schema\"); expected one of " + known,
                error(dir));
        Files.writeString(json, "schema: jwarp-experiment-rss/1\n");
        String notJson = error(dir);
        assertTrue(notJson.startsWith(json + " is not JSON ("), notJson);
        assertEquals(1, notJson.lines().count(), notJson);
    }

    @Test
    void aPerfOutputWithoutItsDocumentIsOneLine() {
        String e = assertThrows(IllegalArgumentException.class, () -> PerfDocument.parse(
                "jwarp: write-lat: connection refused\n", "the write-lat client's output")).getMessage();
        assertTrue(e.startsWith("the write-lat client's output is not JSON ("), e);
        assertEquals(1, e.lines().count(), e);
    }

    private static String error(Path dir) {
        return assertThrows(IllegalArgumentException.class, () -> ResultDirectory.read(dir)).getMessage();
    }
}
