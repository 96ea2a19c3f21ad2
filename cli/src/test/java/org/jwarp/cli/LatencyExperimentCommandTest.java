package org.jwarp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jwarp.bench.experiments.ExperimentData;
import org.jwarp.bench.experiments.LatencyExperiment;

/**
 * {@code jwarp experiment latency} in its smallest form: two sizes on loopback, each point a real
 * write-lat server and client process; the CSV's columns and the values' sanity (not timings), the
 * plot, and a report of it.
 */
class LatencyExperimentCommandTest {

    @Test
    void anOutputDirectoryThatCannotBeMadeIsRefusedBeforeTheRun(@TempDir Path dir) throws Exception {
        Path file = Files.writeString(dir.resolve("a-file"), "x");
        Path out = file.resolve("results");
        JwarpCommandTest.Run r = JwarpCommandTest.run("experiment", "latency", "--quick", "--where", "loopback",
                "--out", out.toString());
        assertEquals(2, r.exit(), r.err() + r.out());
        assertEquals("jwarp: --out " + out + ": " + file + " is a file, not a directory"
                + " (see 'jwarp experiment latency --help')", r.err().strip());
        assertEquals("", r.out(), "nothing ran");
        r = JwarpCommandTest.run("experiment", "latency", "--quick", "--where", "loopback", "--out", "/proc/jwarp-test");
        assertEquals(2, r.exit(), r.err() + r.out());
        assertEquals("jwarp: --out /proc/jwarp-test: cannot create it (no such file or directory)"
                + " (see 'jwarp experiment latency --help')", r.err().strip());
        assertEquals("", r.out(), "nothing ran");
    }

    @Test
    void aTinyRunWritesSaneDataAndAPlot(@TempDir Path dir) throws Exception {
        JwarpCommandTest.Run r = JwarpCommandTest.run("experiment", "latency", "--quick", "--where", "loopback",
                "--sizes", "64,1024", "--out", dir.toString());
        assertEquals(0, r.exit(), r.err() + r.out());
        List<String> csv = Files.readAllLines(dir.resolve("results.csv"));
        assertEquals(ExperimentData.csvHeader(LatencyExperiment.Point.class), csv.getFirst());
        assertEquals(1 + 2 * 2, csv.size(), "2 sizes x 2 transports");
        for (String line : csv.subList(1, csv.size())) {
            String[] f = line.split(",");
            assertEquals("size", f[0]);
            assertTrue(f[1].equals("jwarp") || f[1].equals("sockets-busypoll"), line);
            assertEquals(300, Long.parseLong(f[5]), line);
            double min = Double.parseDouble(f[6]);
            double typical = Double.parseDouble(f[7]);
            double p99 = Double.parseDouble(f[8]);
            assertTrue(min > 0 && min <= typical * 1.002 + 0.01 && typical <= p99 * 1.002 + 0.01, line);
        }
        assertTrue(Files.readString(dir.resolve("latency-by-size.svg")).contains("<svg"));
        assertTrue(Files.readString(dir.resolve("results.json")).contains(LatencyExperiment.SCHEMA));
        Path page = dir.resolve("report.html");
        assertEquals(0, JwarpCommandTest.run("report", dir.toString(), "--out", page.toString()).exit());
        assertTrue(Files.readString(page).contains("Typical one-way latency, jwarp / busy-polling sockets, by size: 64 B "));
    }

    @Test
    void badFlagsAreOneLine() {
        JwarpCommandTest.Run r = JwarpCommandTest.run("experiment", "latency", "--sizes", "0");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("--sizes takes sizes of 1 to 8388608 bytes"), r.err());
        JwarpCommandTest.Run w = JwarpCommandTest.run("experiment", "latency", "--where", "moon");
        assertEquals(2, w.exit());
        assertTrue(w.err().contains("--where takes loopback, both or auto"), w.err());
    }
}
