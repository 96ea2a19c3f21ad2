package org.jwarp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.HdrHistogram.Histogram;
import org.jwarp.bench.report.HtmlReport;
import org.jwarp.bench.report.ResultDirectory;
import org.jwarp.degen.DirectionStats;
import org.jwarp.degen.StatsSnapshot;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the report says about a run, from result directories written here in the experiments' own
 * formats: the verdict's outcome and numbers, the paper's numbers beside ours, the readable table,
 * and degen's measured link per delay as a table, from the note an experiment writes of degen's
 * own statistics.
 */
class ReportContentTest {

    /** The note ExperimentProcesses writes after a delay: degen's statistics on one line. */
    private static String degenNote(double delayMs, long packets, long dropped, long p99Nanos) {
        DirectionStats[] stats = {new DirectionStats("a2b"), new DirectionStats("b2a")};
        Histogram[] errors = {new Histogram(3), new Histogram(3)};
        for (int d = 0; d < 2; d++) {
            stats[d].set(DirectionStats.Counter.TX_PACKETS, packets + d);
            stats[d].set(DirectionStats.Counter.DROP_QUEUE, dropped);
            for (int i = 0; i < 1000; i++) {
                errors[d].recordValue(i < 980 ? 1_000 : p99Nanos);
            }
        }
        StatsSnapshot s = StatsSnapshot.of(5_000_000_000L, new String[] {"delay 2 ms", "delay 2 ms"}, stats, errors,
                Map.of());
        return String.format(Locale.ROOT, "degen at %.1f ms: %s", delayMs, s.render().strip().replace('\n', ' '));
    }

    @Test
    void aLatencyRunWithADelaySweep(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("results.csv"), """
                part,transport,size,delay_ms,repeat,iterations,min_us,typical_us,p99_us
                size,jwarp,4,0.000,0,300,2.000,3.000,9.000
                size,sockets-busypoll,4,0.000,0,300,5.000,6.000,12.000
                size,jwarp,65536,0.000,0,300,20.000,25.000,90.000
                size,sockets-busypoll,65536,0.000,0,300,40.000,50.000,120.000
                delay,jwarp,1024,2.000,0,300,2001.000,2010.000,2100.000
                delay,sockets-busypoll,1024,2.000,0,300,2001.000,2005.000,2100.000
                """);
        String flag = "FLAGGED: the points at 2.0 ms ran over a link that differed from the one asked for: a2b p99 "
                + "lateness 250.0 us";
        Files.writeString(dir.resolve("results.json"), "{\"schema\": \"jwarp-experiment-latency/1\", \"mode\": \"quick\", "
                + "\"sizes\": [4, 65536], \"delaysMs\": [2], \"repeats\": 1, \"notes\": [\"2 CPUs; no pinning; jwarp in "
                + "its default threading mode\", " + quoted(degenNote(2.0, 7000, 3, 250_000)) + ", " + quoted(flag)
                + "], \"results\": []}\n");
        String html = HtmlReport.render(List.of(ResultDirectory.read(dir)));

        assertTrue(html.contains("<td><span class=\"badge reproduced\">reproduced</span></td><td>jwarp 0.50-0.50× "
                + "sockets' one-way latency by size (the paper: RDMA below sockets); with delay 1.00-1.00×, both "
                + "following the delay</td>"), "the summary line");
        assertTrue(html.contains("Typical one-way latency, jwarp / busy-polling sockets, by size: 4 B 0.50; 64 KiB 0.50; "
                + "2 of 2 sizes below sockets. With added delay (jwarp / sockets): 2 ms: 2010 / 2005 µs; both follow the "
                + "delay, as in the paper."), "the verdict names its numbers");
        assertTrue(html.contains("<thead><tr><th>one-way latency, RDMA / sockets</th><th>4 B</th><th>64 KiB</th></tr>"
                + "</thead><tbody>\n<tr><th scope=\"row\">paper: small messages on the LAN (Fig. 8, &quot;differs by almost "
                + "50 %&quot;)</th><td class=\"t\">about 0.5</td><td></td></tr>\n<tr><th scope=\"row\">ours: jwarp / "
                + "busy-polling sockets</th><td>0.5</td><td>0.5</td></tr>"), "seed 000's one number beside ours");
        // the size sweep: the transport's column and the numbers, rounded; one delay and one repeat said once
        assertTrue(html.contains("<h4>By message size</h4>\n<p class=\"same\">In every row: delay 0 ms; iterations 300."
                + "</p>"), html);
        assertTrue(html.contains("<thead><tr><th>transport</th><th>size</th><th>min, µs</th><th>typical, µs</th>"
                + "<th>p99, µs</th></tr></thead>"));
        assertTrue(html.contains("<tr><th scope=\"row\">jwarp</th><td>64 KiB</td><td>20</td><td>25</td><td>90</td></tr>"));
        // the conditions
        assertTrue(html.contains("<tr><th scope=\"row\">delays, ms</th><td>2</td></tr>"));
        assertTrue(html.contains("<tr><th scope=\"row\">placement, threads</th><td class=\"t\">no pinning</td></tr>"));
        assertTrue(html.contains("<tr><th scope=\"row\">2</th><td class=\"t\">A → B</td><td>7000</td><td>3</td><td>1.0 µs</td>"
                + "<td>250.1 µs</td><td>250.1 µs</td><td>250.1 µs</td></tr>"), "degen's link, A to B");
        assertTrue(html.contains("<tr><th scope=\"row\">2</th><td class=\"t\">B → A</td><td>7001</td><td>3</td>"), "B to A");
        assertTrue(html.contains("<li><b>Flagged:</b> the points at 2.0 ms ran over a link that differed"));
    }

    @Test
    void iwarpVsTcpSetsSeed002sTablesBesideOurs(@TempDir Path dir) throws Exception {
        StringBuilder csv = new StringBuilder("part,stack,size,repeat,iterations,typical_us,p99_us,gbps,client_app_pct,"
                + "client_engine_pct,server_app_pct,server_engine_pct,client_soak_pct,server_soak_pct\n");
        String[][] latency = {{"jwarp-crc", "7.100", "52.300"}, {"jwarp-nocrc", "6.900", "49.300"},
            {"tcp", "6.800", "45.400"}};
        for (String[] l : latency) {
            csv.append("latency,").append(l[0]).append(",4,0,1000,").append(l[1]).append(",9.000,,,,,,,\n");
            csv.append("latency,").append(l[0]).append(",65536,0,1000,").append(l[2]).append(",90.000,,,,,,,\n");
        }
        csv.append("throughput,jwarp-crc,65536,0,1000,,,5.600,50,0,38,0,94,81\n");
        csv.append("throughput,jwarp-nocrc,65536,0,1000,,,9.300,71,0,63,0,88,84\n");
        csv.append("throughput,tcp,65536,0,1000,,,6.600,57,0,26,0,84,3\n");
        Files.writeString(dir.resolve("results.csv"), csv.toString());
        Files.writeString(dir.resolve("results.json"), "{\"schema\": \"jwarp-experiment-iwarp-vs-tcp/1\", \"mode\": "
                + "\"quick\", \"notes\": [], \"results\": []}\n");
        String html = HtmlReport.render(List.of(ResultDirectory.read(dir)));
        assertTrue(html.contains("<thead><tr><th>one-way latency, µs</th><th>4 B</th><th>64 KiB</th></tr></thead>"));
        assertTrue(html.contains("<tr><th scope=\"row\">paper: kernel software iWARP, CRC on (Table 2)</th><td>20.3</td>"
                + "<td>615.5</td></tr>"));
        assertTrue(html.contains("<tr><th scope=\"row\">paper: TCP (Table 1)</th><td>16.9</td><td>594.8</td></tr>"));
        assertTrue(html.contains("<tr><th scope=\"row\">ours: jwarp, CRC on</th><td>7.1</td><td>52.3</td></tr>"));
        // latency within 1.25x of TCP holds; a CRC costing 40 % of the rate does not: partly
        assertTrue(html.contains("<span class=\"badge partly\">partly</span></td><td>latency at most 1.15× TCP's (the "
                + "paper: 1.20× at 4 B); throughput with the CRC 0.60-0.60× without it"), html);
        assertEquals(1, html.split("<p class=\"verdict\"", -1).length - 1);
    }

    private static String quoted(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }
}
