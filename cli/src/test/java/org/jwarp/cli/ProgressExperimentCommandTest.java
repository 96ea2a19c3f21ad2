package org.jwarp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jwarp.bench.experiments.ExperimentData;
import org.jwarp.bench.experiments.ProgressExperiment;

/**
 * {@code jwarp experiment progress} in its smallest form: two remote loads on loopback, each point a
 * real server and client process fetching verified data; the CSV's columns and the values' sanity
 * (not timings: the fetch over sockets waits for the busy server, so it takes at least the load).
 */
class ProgressExperimentCommandTest {

    @Test
    void aTinyRunWritesSaneDataAndAPlot(@TempDir Path dir) throws Exception {
        JwarpCommandTest.Run r = JwarpCommandTest.run("experiment", "progress", "--quick", "--where", "loopback",
                "--loads", "0,8", "--out", dir.toString());
        assertEquals(0, r.exit(), r.err() + r.out());
        List<String> csv = Files.readAllLines(dir.resolve("results.csv"));
        assertEquals(ExperimentData.csvHeader(ProgressExperiment.Point.class), csv.getFirst());
        assertEquals(1 + 2 * 2, csv.size(), "2 loads x 2 stacks");
        for (String line : csv.subList(1, csv.size())) {
            String[] f = line.split(",");
            assertEquals("load", f[0]);
            assertEquals(40, Integer.parseInt(f[5]), line);
            double median = Double.parseDouble(f[6]);
            assertTrue(Double.parseDouble(f[8]) > 0 && median >= Double.parseDouble(f[8]), line);
            if (f[1].equals("sockets") && f[2].equals("8.000")) {
                // the request waits for the server's next look at the network, a full loop later
                assertTrue(median >= 8000 * 0.9, "a sockets fetch waits for the busy server: " + line);
            }
        }
        assertTrue(Files.readString(dir.resolve("fetch-by-load.svg")).contains("<svg"));
        Path page = dir.resolve("report.html");
        assertEquals(0, JwarpCommandTest.run("report", dir.toString(), "--out", page.toString()).exit());
        assertTrue(Files.readString(page).contains(" from 0 to 8 ms of remote load; sockets "));
    }

    @Test
    void badFlagsAreOneLine() {
        JwarpCommandTest.Run r = JwarpCommandTest.run("experiment", "progress", "--loads", "-1");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("--loads takes 0 to 1000 ms"), r.err());
    }
}
