package org.jwarp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jwarp.bench.experiments.CpuImpactExperiment;
import org.jwarp.bench.experiments.ExperimentData;

/**
 * {@code jwarp experiment cpu-impact} in its smallest form: one size, two streaming clients and a
 * short job on loopback, each stack a real server and client process; the CSV's columns and the
 * values' sanity (not timings: that streams arrived, that the slowdown is loaded / alone), the
 * JSON's schema, the plot, and a report of it.
 */
class CpuImpactExperimentCommandTest {

    @Test
    void aTinyRunWritesSaneDataAndAPlot(@TempDir Path dir) throws Exception {
        JwarpCommandTest.Run r = JwarpCommandTest.run("experiment", "cpu-impact", "--quick", "--where", "loopback",
                "--sizes", "4096", "--clients", "2", "--job-ms", "100", "--out", dir.toString());
        assertEquals(0, r.exit(), r.err() + r.out());
        List<String> csv = Files.readAllLines(dir.resolve("results.csv"));
        assertEquals(ExperimentData.csvHeader(CpuImpactExperiment.Point.class), csv.getFirst());
        assertEquals(1 + 2, csv.size(), "1 size x 2 stacks");
        for (String line : csv.subList(1, csv.size())) {
            String[] f = line.split(",");
            assertEquals(10, f.length, line);
            assertEquals("size", f[0]);
            assertTrue(f[1].equals("jwarp") || f[1].equals("sockets"), line);
            assertEquals(2, Integer.parseInt(f[5]), line);
            double alone = Double.parseDouble(f[6]);
            double loaded = Double.parseDouble(f[7]);
            double slowdown = Double.parseDouble(f[8]);
            assertTrue(alone > 0 && loaded > 0 && Double.isFinite(alone) && Double.isFinite(loaded), line);
            assertEquals(loaded / alone, slowdown, 1e-3 * slowdown + 1e-4, line);
            assertTrue(Double.parseDouble(f[9]) > 0, "the clients' messages reached the server: " + line);
        }
        assertTrue(Files.readString(dir.resolve("results.json")).contains(CpuImpactExperiment.SCHEMA));
        assertTrue(Files.readString(dir.resolve("job-time-by-size.svg")).contains("<svg"));
        assertTrue(Files.readString(dir.resolve("README.md")).contains("(the paper: 40)"));
        Path page = dir.resolve("report.html");
        assertEquals(0, JwarpCommandTest.run("report", dir.toString(), "--out", page.toString()).exit());
        assertTrue(Files.readString(page).contains("The server job's slowdown under background streams"));
    }

    @Test
    void badFlagsAreOneLine() {
        JwarpCommandTest.Run c = JwarpCommandTest.run("experiment", "cpu-impact", "--clients", "0");
        assertEquals(2, c.exit());
        assertTrue(c.err().contains("--clients takes 1 to 256 clients, not 0"), c.err());
        assertEquals(1, c.err().strip().lines().count(), c.err());
        JwarpCommandTest.Run w = JwarpCommandTest.run("experiment", "cpu-impact", "--where", "moon");
        assertEquals(2, w.exit());
        assertTrue(w.err().contains("--where takes loopback, both or auto"), w.err());
    }
}
