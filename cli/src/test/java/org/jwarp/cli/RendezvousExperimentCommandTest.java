package org.jwarp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jwarp.bench.experiments.ExperimentData;
import org.jwarp.bench.experiments.RendezvousExperiment;

/**
 * {@code jwarp experiment rendezvous} in its smallest form: two sizes on loopback, a real receiver
 * and sender process moving checked messages by each protocol; the files' columns, rows and the
 * figures' sanity (not timings).
 */
class RendezvousExperimentCommandTest {

    @Test
    void aTinyRunWritesSaneDataPlotsAndAReportSection(@TempDir Path dir) throws Exception {
        JwarpCommandTest.Run r = JwarpCommandTest.run("experiment", "rendezvous", "--quick", "--where", "loopback",
                "--sizes", "100,70000", "--messages", "12", "--out", dir.toString());
        assertEquals(0, r.exit(), r.err() + r.out());
        List<String> csv = Files.readAllLines(dir.resolve("results.csv"));
        assertEquals(ExperimentData.csvHeader(RendezvousExperiment.Point.class), csv.getFirst());
        assertEquals(1 + 2 * 3, csv.size(), "2 sizes x 3 protocols: " + csv);
        Set<String> seen = new HashSet<>();
        for (String line : csv.subList(1, csv.size())) {
            String[] f = line.split(",", -1);
            seen.add(f[1] + "/" + f[2]);
            assertEquals("size", f[0]);
            assertEquals("12", f[5], line);
            double median = Double.parseDouble(f[6]);
            assertTrue(Double.parseDouble(f[8]) > 0 && median >= Double.parseDouble(f[8])
                    && Double.parseDouble(f[7]) >= median, line);
            assertTrue(Double.parseDouble(f[9]) > 0 && Double.parseDouble(f[10]) >= 0, "the receiver's CPU: " + line);
        }
        assertEquals(Set.of("eager/100", "write/100", "read/100", "eager/70000", "write/70000", "read/70000"), seen);
        assertTrue(Files.readString(dir.resolve("results.json")).contains("\"schema\": \""
                + RendezvousExperiment.SCHEMA + "\""));
        for (String svg : List.of("latency-by-size.svg", "server-cpu-by-size.svg")) {
            assertTrue(Files.readString(dir.resolve(svg)).contains("<svg"), svg);
        }
        assertTrue(Files.readString(dir.resolve("README.md")).contains("| size | 70000 |"));
        Path page = dir.resolve("report.html");
        assertEquals(0, JwarpCommandTest.run("report", dir.toString(), "--out", page.toString()).exit());
        assertTrue(Files.readString(page).contains("Message latency, eager / WRITE rendezvous / READ rendezvous"));
    }

    @Test
    void badFlagsAreOneLine() {
        JwarpCommandTest.Run r = JwarpCommandTest.run("experiment", "rendezvous", "--messages", "0");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("--messages must be 1 to 1000000, not 0"), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        JwarpCommandTest.Run w = JwarpCommandTest.run("experiment", "rendezvous", "--where", "moon");
        assertEquals(2, w.exit());
        assertTrue(w.err().contains("--where takes loopback, both or auto"), w.err());
    }
}
