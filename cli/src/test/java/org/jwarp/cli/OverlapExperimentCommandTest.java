package org.jwarp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jwarp.bench.experiments.ExperimentData;
import org.jwarp.bench.experiments.OverlapExperiment;

/**
 * {@code jwarp experiment overlap} in its smallest form: one size and two computation times on
 * loopback, each stack a real server and client process whose pongs are checked; the CSV's
 * columns and the values' sanity (not timings), the JSON's schema, the plot, and a report of it.
 */
class OverlapExperimentCommandTest {

    @Test
    void aTinyRunWritesSaneDataAndAPlot(@TempDir Path dir) throws Exception {
        JwarpCommandTest.Run r = JwarpCommandTest.run("experiment", "overlap", "--quick", "--where", "loopback",
                "--sizes", "4096", "--computes", "1,4", "--out", dir.toString());
        assertEquals(0, r.exit(), r.err() + r.out());
        List<String> csv = Files.readAllLines(dir.resolve("results.csv"));
        assertEquals(ExperimentData.csvHeader(OverlapExperiment.Point.class), csv.getFirst());
        assertEquals(1 + 2 * 2, csv.size(), "2 computation times x 2 stacks");
        for (String line : csv.subList(1, csv.size())) {
            String[] f = line.split(",");
            assertEquals(11, f.length, line);
            assertEquals("compute", f[0]);
            assertTrue(f[1].equals("jwarp") || f[1].equals("sockets"), line);
            assertEquals(4096, Integer.parseInt(f[2]), line);
            assertTrue(Integer.parseInt(f[6]) >= 3, line);
            double overlap = Double.parseDouble(f[7]);
            double total = Double.parseDouble(f[8]);
            double compute = Double.parseDouble(f[9]);
            double roundTrip = Double.parseDouble(f[10]);
            assertTrue(overlap > 0 && overlap <= 1, "a share of the total: " + line);
            // every iteration's total contains its computation, so their medians keep that order
            assertTrue(compute > 0 && Double.isFinite(total) && total >= compute, line);
            assertTrue(roundTrip > 0 && Double.isFinite(roundTrip), line);
        }
        String json = Files.readString(dir.resolve("results.json"));
        assertTrue(json.contains(OverlapExperiment.SCHEMA) && json.contains("\"computeMsFig5b\": 242"), json);
        assertTrue(Files.readString(dir.resolve("overlap-by-compute.svg")).contains("<svg"));
        assertTrue(Files.readString(dir.resolve("README.md")).contains("Fig. 5b at 242 ms of computation"));
        Path page = dir.resolve("report.html");
        assertEquals(0, JwarpCommandTest.run("report", dir.toString(), "--out", page.toString()).exit());
        assertTrue(Files.readString(page).contains("Overlap ratio, RDMA WRITE against sockets: at or above sockets at"));
    }

    @Test
    void badFlagsAreOneLine() {
        JwarpCommandTest.Run c = JwarpCommandTest.run("experiment", "overlap", "--computes", "0");
        assertEquals(2, c.exit());
        assertTrue(c.err().contains("--computes takes 0.01 to 10000 ms, not 0.0"), c.err());
        assertEquals(1, c.err().strip().lines().count(), c.err());
        JwarpCommandTest.Run p = JwarpCommandTest.run("experiment", "overlap", "--placement", "moon");
        assertEquals(2, p.exit());
        assertTrue(p.err().contains("--placement takes pinned or free, not 'moon'"), p.err());
    }
}
