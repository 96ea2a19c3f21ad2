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
import org.jwarp.bench.experiments.IwarpVsTcpExperiment;

/**
 * {@code jwarp experiment iwarp-vs-tcp} in its smallest form: one latency size and one stream size,
 * each stack a real server and client process moving verified data (jwarp with CRC on and off, as
 * negotiated, and TCP); the files' columns, rows and the figures' sanity (not timings).
 */
class IwarpVsTcpExperimentCommandTest {

    @Test
    void aTinyRunWritesSaneDataPlotsAndAReportSection(@TempDir Path dir) throws Exception {
        JwarpCommandTest.Run r = JwarpCommandTest.run("experiment", "iwarp-vs-tcp", "--quick", "--latency-sizes", "64",
                "--throughput-sizes", "4096", "--seconds", "0.2", "--out", dir.toString());
        assertEquals(0, r.exit(), r.err() + r.out());
        List<String> csv = Files.readAllLines(dir.resolve("results.csv"));
        assertEquals(ExperimentData.csvHeader(IwarpVsTcpExperiment.Point.class), csv.getFirst());
        assertEquals(1 + 2 * 3, csv.size(), "latency and throughput x 3 stacks: " + csv);
        Set<String> seen = new HashSet<>();
        for (String line : csv.subList(1, csv.size())) {
            String[] f = line.split(",", -1);
            seen.add(f[0] + "/" + f[1]);
            assertTrue(Long.parseLong(f[4]) > 0, line);
            if (f[0].equals("latency")) {
                assertEquals("64", f[2]);
                assertTrue(Double.parseDouble(f[5]) > 0 && Double.parseDouble(f[6]) >= Double.parseDouble(f[5]), line);
                assertEquals("", f[12], "no soaker in the ping-pong: " + line);
            } else {
                assertEquals("4096", f[2]);
                assertTrue(Double.parseDouble(f[7]) > 0, "moved data: " + line);
                for (int c = 8; c <= 13; c++) {
                    double v = Double.parseDouble(f[c]);
                    assertTrue(v >= 0 && v <= 400, "a CPU share of at most the machine's: " + line);
                }
            }
        }
        assertEquals(Set.of("latency/jwarp-crc", "latency/jwarp-nocrc", "latency/tcp", "throughput/jwarp-crc",
                "throughput/jwarp-nocrc", "throughput/tcp"), seen);
        String json = Files.readString(dir.resolve("results.json"));
        assertTrue(json.contains("\"schema\": \"" + IwarpVsTcpExperiment.SCHEMA + "\""), json);
        assertTrue(json.contains("\"serverSoakPct\""), json);
        for (String svg : List.of("latency-by-size.svg", "throughput-by-size.svg", "cpu-soaker-by-size.svg",
                "cpu-threads-by-size.svg")) {
            assertTrue(Files.readString(dir.resolve(svg)).contains("<svg"), svg);
        }
        String readme = Files.readString(dir.resolve("README.md"));
        assertTrue(readme.contains("8 Mb/s") && readme.contains("soaker on CPU"), readme);
        Path page = dir.resolve("report.html");
        assertEquals(0, JwarpCommandTest.run("report", dir.toString(), "--out", page.toString()).exit());
        assertTrue(Files.readString(page).contains("MPA CRC cost"), "the report's verdict");
    }

    @Test
    void badFlagsAreOneLine() {
        JwarpCommandTest.Run r = JwarpCommandTest.run("experiment", "iwarp-vs-tcp", "--throughput-sizes", "0");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("--throughput-sizes takes sizes of 1 to 8388608 bytes, not 0"), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        JwarpCommandTest.Run s = JwarpCommandTest.run("experiment", "iwarp-vs-tcp", "--seconds", "0");
        assertEquals(2, s.exit());
        assertTrue(s.err().contains("--seconds must be 0.1 to 600"), s.err());
    }
}
