package org.jwarp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jwarp.bench.experiment.ToeReport;

/**
 * {@code jwarp experiment toe} end to end in its smallest configuration (loopback, one short run
 * per point, each side a process of its own): the Table I layout with the paper's figures, and the
 * CSV and JSON with every point and sane values (not timings); bad flags in one line.
 */
class ToeExperimentCommandTest {

    @Test
    @SuppressWarnings("unchecked")
    void aTinyRunWritesTheTableTheDataAndThePlots(@TempDir Path dir) throws Exception {
        JwarpCommandTest.Run r = JwarpCommandTest.run("experiment", "toe", "--where", "loopback", "--seconds", "0.3",
                "--repeats", "1", "--out", dir.toString());
        assertEquals(0, r.exit(), r.err() + r.out());
        String out = r.out();
        assertTrue(out.contains("paper: TOE (emulated, Table II)") && out.contains("paper: Solaris TCP (Table I)"), out);
        assertTrue(out.contains("128 KiB chunks") && out.contains("8 KiB chunks"), out);
        assertTrue(out.contains("jwarp TOE: host CPU") && out.contains("Java sockets: host CPU"), out);

        List<String> csv = Files.readAllLines(dir.resolve("results.csv"));
        assertEquals("where,repeat,stack,chunk,side,bytes,seconds,gbps,host_cpu_s,engine_cpu_s,host_pct_cpu_per_gbps,"
                + "engine_pct_cpu_per_gbps,interrupts,events,requests", csv.getFirst());
        assertEquals(1 + 2 * 2 * 2, csv.size(), "2 chunks x 2 stacks x 2 sides");
        long sent = -1;
        for (String line : csv.subList(1, csv.size())) {
            String[] f = line.split(",");
            assertEquals("loopback", f[0]);
            assertTrue(f[2].equals("toe") || f[2].equals("sockets"), line);
            assertTrue(f[3].equals("8192") || f[3].equals("131072"), line);
            long bytes = Long.parseLong(f[5]);
            assertTrue(bytes > 0 && bytes % Long.parseLong(f[3]) == 0, "whole chunks were sent: " + line);
            if (f[4].equals("sender")) {
                sent = bytes;
            } else {
                assertEquals(sent, bytes, "the receiver got every byte the sender sent: " + line);
            }
            assertTrue(Double.parseDouble(f[7]) > 0, line);
            assertTrue(Double.parseDouble(f[8]) >= 0 && Double.parseDouble(f[10]) >= 0, line);
            if (f[2].equals("sockets")) {
                assertEquals("0.0000", f[9], "plain sockets have no engine: " + line);
                assertEquals("0", f[14], line);
            } else {
                assertTrue(Double.parseDouble(f[9]) > 0, "the engine did the TCP work: " + line);
                assertTrue(Long.parseLong(f[14]) > 0 || f[4].equals("receiver"), "the sender posted requests: " + line);
            }
        }
        Map<String, Object> doc = (Map<String, Object>) StrictJson.parse(Files.readString(dir.resolve("results.json")));
        assertEquals(ToeReport.SCHEMA, doc.get("schema"));
        assertEquals(8, ((List<?>) doc.get("results")).size());
        assertEquals(11.0, ((Number) ((Map<String, Object>) doc.get("paperPercentOfOneCpuPerGbps")).get("toeSend128k"))
                .doubleValue());
        for (String f : List.of("cpu-loopback.svg", "throughput-loopback.svg", "README.md")) {
            assertTrue(Files.size(dir.resolve(f)) > 200, f);
        }
        assertTrue(Files.readString(dir.resolve("cpu-loopback.svg")).contains("<svg"));
    }

    @Test
    void badFlagsAreOneLine() {
        assertOneLine(JwarpCommandTest.run("experiment", "toe", "--where", "moon"), "--where takes loopback, testbed");
        assertOneLine(JwarpCommandTest.run("experiment", "toe", "--seconds", "0"), "--seconds must be 0.2 to 600");
        assertOneLine(JwarpCommandTest.run("experiment", "toe", "--repeats", "0"), "--repeats must be 1 to 100");
    }

    @Test
    void listNamesIt() {
        JwarpCommandTest.Run r = JwarpCommandTest.run("experiment", "list");
        assertTrue(r.out().lines().anyMatch(l -> l.startsWith("toe ")), r.out());
    }

    private static void assertOneLine(JwarpCommandTest.Run r, String expected) {
        assertEquals(2, r.exit(), r.out() + r.err());
        assertTrue(r.err().contains(expected), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
    }
}
