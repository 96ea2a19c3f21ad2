package org.jwarp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import picocli.CommandLine;

/**
 * {@code jwarp experiment all}: every experiment, each given its smallest plan through the command's
 * test seam (the same narrowing options as its own test), each into DIR/NAME, then the report.
 */
class AllExperimentsCommandTest {

    /** Each experiment's smallest plan: loopback only, the fewest points its own test uses. */
    private static final Map<String, List<String>> SMALLEST = Map.of(
            "rss", List.of("--connections", "1", "--engines", "1", "--seconds", "0.1"),
            "toe", List.of("--where", "loopback", "--seconds", "0.3", "--repeats", "1"),
            "latency", List.of("--where", "loopback", "--sizes", "64"),
            "progress", List.of("--where", "loopback", "--loads", "0,8"),
            "overlap", List.of("--where", "loopback", "--sizes", "4096", "--computes", "4"),
            "cpu-impact", List.of("--where", "loopback", "--sizes", "4096", "--clients", "2", "--job-ms", "100"),
            "rendezvous", List.of("--where", "loopback", "--sizes", "100", "--messages", "12"),
            "iwarp-vs-tcp", List.of("--latency-sizes", "64", "--throughput-sizes", "4096", "--seconds", "0.2"),
            "verbs-options", List.of("--parts", "buffers", "--buffers", "1,4", "--seconds", "0.05"));

    @Test
    void everyExperimentRunsIntoItsDirectoryAndTheReportHasThemAll(@TempDir Path dir) throws Exception {
        CommandLine cl = JwarpCommand.newCommandLine();
        AllExperimentsCommand all = cl.getSubcommands().get("experiment").getSubcommands().get("all").getCommand();
        all.extraArgs = SMALLEST;
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        cl.setOut(new PrintWriter(out, true));
        cl.setErr(new PrintWriter(err, true));
        int exit = cl.execute("experiment", "all", "--quick", "--out", dir.toString());
        assertEquals(0, exit, err + out.toString());
        assertEquals(SMALLEST.keySet(), java.util.Set.copyOf(all.experiments()),
                "every experiment has its smallest plan here, and nothing else runs");
        for (String name : all.experiments()) {
            assertTrue(Files.isRegularFile(dir.resolve(name).resolve("results.json")), name);
            assertTrue(out.toString().contains("jwarp experiment " + name + " --quick --out " + dir.resolve(name)),
                    out.toString());
        }
        String html = Files.readString(dir.resolve("report.html"));
        for (String name : all.experiments()) {
            assertTrue(html.contains("<section class=\"experiment\" id=\"" + name + "\">"), name);
        }
        assertTrue(out.toString().contains("report: " + dir.resolve("report.html") + " (9 of 9 experiments)"),
                out.toString());
    }
}
