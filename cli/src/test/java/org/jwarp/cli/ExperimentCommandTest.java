package org.jwarp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.StringReader;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import javax.xml.parsers.DocumentBuilderFactory;
import org.jwarp.bench.experiments.Experiments;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.xml.sax.InputSource;

/** {@code jwarp experiment rss}: a short real run writes its CSV, JSON, plots and README; bad options are one line. */
class ExperimentCommandTest {

    @TempDir
    Path dir;

    @Test
    void aShortRssRunWritesItsDataPlotsAndReadme() throws Exception {
        Path out = dir.resolve("rss");
        JwarpCommandTest.Run r = JwarpCommandTest.run("experiment", "rss", "--quick", "--connections", "1,2",
                "--engines", "1,2", "--seconds", "0.1", "--out", out.toString());
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().contains("wrote 6 files to " + out), r.out());
        // one engine thread: RSS only; two: three steerings; each moderated or not, at 2 connection counts
        List<String> csv = Files.readAllLines(out.resolve("results.csv"));
        assertEquals("engines,steering,moderated,connections,seconds,bytes,gbps,wakeups_per_s,fpdus_per_wakeup,"
                + "engine_cpu_ns_per_kib,engines_used", csv.getFirst());
        assertEquals(1 + 4 + 12, csv.size(), String.join("\n", csv));
        for (String row : csv.subList(1, csv.size())) {
            String[] f = row.split(",");
            assertTrue(Long.parseLong(f[5]) > 0, "every point moved bytes: " + row);
            int engines = Integer.parseInt(f[0]);
            int used = Integer.parseInt(f[10]);
            assertTrue(used >= 1 && used <= engines, row);
            if (f[1].equals("one")) {
                assertEquals(1, used, "all on one engine thread: " + row);
            }
            if (f[1].equals("round-robin") && f[3].equals("2")) {
                assertEquals(2, used, "two connections round robin over two threads: " + row);
            }
        }
        @SuppressWarnings("unchecked")
        Map<String, Object> json = (Map<String, Object>) StrictJson.parse(Files.readString(out.resolve("results.json")));
        assertEquals("jwarp-experiment-rss/1", json.get("schema"));
        assertEquals(16, ((List<?>) json.get("results")).size());
        for (String svg : List.of("throughput.svg", "wakeups.svg", "cpu.svg")) {
            var doc = DocumentBuilderFactory.newInstance().newDocumentBuilder()
                    .parse(new InputSource(new StringReader(Files.readString(out.resolve(svg)))));
            assertEquals("svg", doc.getDocumentElement().getTagName());
            // 2 series of one engine thread (moderated or not), 6 of two (3 steerings, moderated or not): a line
            // per series and one in the legend, each a path
            assertTrue(doc.getElementsByTagName("path").getLength() >= 8, svg + ": a line per series");
            assertTrue(!Files.readString(out.resolve(svg)).contains("<!DOCTYPE"), svg + ": standalone, no external DTD");
        }
        assertTrue(Files.readString(out.resolve("README.md")).startsWith("# RSS experiment (seed 004)"));
    }

    /** The registry and the commands agree: every experiment has its subcommand, every subcommand but three is one. */
    @Test
    void everyExperimentOfTheRegistryIsASubcommandInItsOrder() {
        List<String> sub = new java.util.ArrayList<>(JwarpCommand.newCommandLine().getSubcommands().get("experiment")
                .getSubcommands().keySet());
        sub.removeAll(List.of("list", "all", "help"));
        assertEquals(Experiments.names(), sub);
    }

    @Test
    void listAndBadOptions() {
        JwarpCommandTest.Run list = JwarpCommandTest.run("experiment", "list");
        assertEquals(0, list.exit());
        assertTrue(list.out().startsWith("rss "), list.out());
        List<String> names = list.out().lines().map(l -> l.split(" ")[0]).toList();
        List<String> expected = new java.util.ArrayList<>(Experiments.names());
        expected.add("all");
        assertEquals(expected, names, "the registry's experiments, then all");
        JwarpCommandTest.Run bad = JwarpCommandTest.run("experiment", "rss", "--connections", "0");
        assertEquals(2, bad.exit());
        assertEquals("jwarp: --connections takes values from 1 to 1000, not 0 (see 'jwarp experiment rss --help')",
                bad.err().strip());
    }
}
