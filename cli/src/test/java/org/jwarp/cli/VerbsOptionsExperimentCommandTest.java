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
import org.jwarp.bench.experiments.VerbsOptionsExperiment;

/**
 * {@code jwarp experiment verbs-options} in a small form: ping, and blast over 1 and 4 buffers with
 * and without post lists and periodic signaling, each point a real perf test moving verified data in
 * this process; the files' columns, rows, the figures' sanity (not timings), the plots and the
 * report's verdict.
 */
class VerbsOptionsExperimentCommandTest {

    @Test
    void aSmallRunWritesSaneDataPlotsAndAReportSection(@TempDir Path dir) throws Exception {
        JwarpCommandTest.Run r = JwarpCommandTest.run("experiment", "verbs-options", "--quick", "--parts",
                "ping,buffers,signaling", "--buffers", "1,4", "--seconds", "0.05", "--out", dir.toString());
        assertEquals(0, r.exit(), r.err() + r.out());
        List<String> csv = Files.readAllLines(dir.resolve("results.csv"));
        assertEquals("part,tool,opcode,inline,events,size,buffers,post_list,cq_mod,repeat,iterations,one_way_us,gbps,"
                + "active_cpu_pct,passive_cpu_pct", csv.getFirst());
        // ping: 2 opcode sets x busy/events x (16 B inline, 16 B, 1 KiB); buffers: 1, 4, 4 with lists;
        // signaling: 4 buffers x single/list x full/periodic
        assertEquals(1 + 12 + 3 + 4, csv.size(), String.join("\n", csv));
        Set<String> seen = new HashSet<>();
        for (String line : csv.subList(1, csv.size())) {
            String[] f = line.split(",", -1);
            seen.add(f[0] + "/" + f[2] + "/" + f[3] + "/" + f[4] + "/" + f[7] + "/" + f[8]);
            assertTrue(Long.parseLong(f[10]) > 0, "ran: " + line);
            assertTrue(Double.parseDouble(f[11]) > 0 && Double.parseDouble(f[12]) > 0, "moved data: " + line);
            for (int c = 13; c <= 14; c++) {
                double v = Double.parseDouble(f[c]);
                assertTrue(v >= 0 && v <= 100 * Runtime.getRuntime().availableProcessors() + 50, "a CPU share: " + line);
            }
            if (f[0].equals("signaling")) {
                assertEquals("4", f[6], line);
                assertTrue(f[8].equals("1") || f[8].equals("2"), "full or every buffers/2: " + line);
            }
        }
        assertTrue(seen.containsAll(Set.of("ping/send/true/false/1/1", "ping/write-imm/false/true/1/1",
                "buffers/write/true/false/4/1", "signaling/write/true/false/4/2")), seen.toString());
        String json = Files.readString(dir.resolve("results.json"));
        StrictJson.parse(json);
        assertTrue(json.contains("\"schema\": \"" + VerbsOptionsExperiment.SCHEMA + "\""), json);
        assertTrue(json.contains("\"oneWayUs\""), json);
        for (String svg : List.of("ping-one-way.svg", "ping-cpu.svg", "buffers-one-way.svg", "buffers-gbps.svg",
                "signaling-one-way.svg", "signaling-gbps.svg")) {
            assertTrue(Files.readString(dir.resolve(svg)).contains("<svg"), svg);
        }
        String readme = Files.readString(dir.resolve("README.md"));
        assertTrue(readme.contains("jwarp-perf-client") && readme.contains("where threads ran"), readme);
        Path page = dir.resolve("report.html");
        assertEquals(0, JwarpCommandTest.run("report", dir.toString(), "--out", page.toString()).exit());
        String html = Files.readString(page);
        assertTrue(html.contains("busy polling below events at") && html.contains("buffers:"), "the verdict: " + html);
    }

    @Test
    void badFlagsAreOneLine() {
        JwarpCommandTest.Run p = JwarpCommandTest.run("experiment", "verbs-options", "--parts", "moon");
        assertEquals(2, p.exit());
        assertTrue(p.err().contains("--parts takes ping, blast-small"), p.err());
        assertEquals(1, p.err().strip().lines().count(), p.err());
        JwarpCommandTest.Run b = JwarpCommandTest.run("experiment", "verbs-options", "--buffers", "0");
        assertEquals(2, b.exit());
        assertTrue(b.err().contains("--buffers takes 1 to 128 buffers, not 0"), b.err());
    }
}
