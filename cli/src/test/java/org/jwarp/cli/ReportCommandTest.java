package org.jwarp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code jwarp report}: two real experiment runs (the TOE one on loopback, the RSS one in its
 * smallest form) rendered into one page, which headless Chromium then loads: the summary must have
 * a line per experiment, every verdict must be there and name its numbers, every plot must be
 * drawn with all its words inside it, and the page must name nothing outside itself.
 */
class ReportCommandTest {

    @Test
    void aReportOfTwoExperimentsRendersEveryPlotInChromium(@TempDir Path dir) throws Exception {
        Path toe = dir.resolve("toe");
        Path rss = dir.resolve("rss");
        assertEquals(0, JwarpCommandTest.run("experiment", "toe", "--where", "loopback", "--seconds", "0.3",
                "--out", toe.toString()).exit());
        JwarpCommandTest.Run r = JwarpCommandTest.run("experiment", "rss", "--connections", "1,4", "--engines", "1",
                "--seconds", "0.1", "--out", rss.toString());
        assertEquals(0, r.exit(), r.err());
        Path page = dir.resolve("report.html");
        JwarpCommandTest.Run rep = JwarpCommandTest.run("report", toe.toString(), rss.toString(), "--out", page.toString());
        assertEquals(0, rep.exit(), rep.err());
        String html = Files.readString(page);
        assertTrue(html.contains("Offloaded sockets (seed 001") && html.contains("Receive-Side Scaling (seed 004)"));
        assertTrue(!html.contains("src=\"http") && !html.contains("href=\"http") && !html.contains("<link"),
                "self-contained: nothing loaded from elsewhere");
        assertTrue(html.length() < 200_000, "two experiments in " + html.length() + " characters");

        // the summary: a line per experiment, its figure, its outcome and the numbers
        Matcher line = Pattern.compile("<tr><th scope=\"row\"><a href=\"#(\\w[\\w-]*)\">[^<]+</a></th><td>([^<]+)</td>"
                + "<td><span class=\"badge (reproduced|partly|not|none)\">[^<]+</span></td><td>([^<]+)</td></tr>")
                .matcher(html);
        assertTrue(line.find(), "the summary's first line");
        assertEquals("toe", line.group(1));
        assertEquals("seed 001 Tables I, II", line.group(2));
        assertTrue(line.group(4).matches("host CPU per Gb/s, TOE below Java sockets at \\d of 4 points .*"),
                line.group(4));
        assertTrue(line.find(), "the summary's second line");
        assertEquals("rss", line.group(1));
        assertTrue(line.group(4).matches("wake-ups per second on one engine thread, 1 → 4 connections: \\d+ → \\d+"),
                line.group(4));

        // a verdict per experiment that names its numbers, the paper's numbers beside ours for the TOE
        Matcher verdict = Pattern.compile("<p class=\"verdict\" data-outcome=\"(\\w+)\"><span class=\"badge \\1\">"
                + "[^<]+</span> ([^<]+)</p>").matcher(html);
        assertTrue(verdict.find() && verdict.group(2).startsWith("Host CPU per Gb/s, TOE / Java sockets (below 1: "
                + "the offload saves host CPU, as the paper found): loopback send 128 KiB "), verdict.group(2));
        assertTrue(verdict.find() && verdict.group(2).matches("Wake-ups per second on one engine thread, 1 → 4 "
                + "connections: \\d+ → \\d+ — they (do not )?fall.*"), verdict.group(2));
        assertTrue(html.contains("<th scope=\"row\">paper: emulated TOE (Table II)</th><td>11</td><td>14</td><td>12</td>"
                + "<td>24</td></tr>"), "seed 001's Table II beside ours");
        assertTrue(html.contains("<th scope=\"row\">loopback: TOE / sockets</th>"));

        // readable tables: units in the headers, a column of one value said once above its table
        assertTrue(html.contains("<th>host, % of a CPU per Gb/s</th>") && html.contains("<th>wake-ups/s</th>"));
        assertTrue(!html.contains("<th>host_pct_cpu_per_gbps</th>") && !html.contains("<th>engines</th>"));
        assertTrue(html.contains("<p class=\"same\">In every row: engines 1; steering rss;"), "RSS's one engine thread");
        assertTrue(html.contains("<tr><th scope=\"row\">CPUs</th><td>" + Runtime.getRuntime().availableProcessors()
                + "</td></tr>"), "the conditions as a table");
        assertTrue(html.contains("<tr><th scope=\"row\">places</th><td class=\"t\">loopback: two processes on 127.0.0.1"
                + "</td></tr>"), "a plan's list of objects, for reading");
        assertTrue(html.contains("<tr><th scope=\"row\">machine</th><td class=\"t\">" + System.getProperty("os.name")
                + " "), "the machine, noted by the experiment");
        assertTrue(!html.contains("paper percent"), "the paper's numbers are beside ours, not among the conditions");

        int svgs = count(html, "<div class=\"plot\"");
        assertEquals(2 + 3, svgs, "the TOE run's 2 plots and the RSS run's 3");
        String dom = chromium(page);
        assertEquals(String.valueOf(svgs), attribute(dom, "data-plots"), "Chromium found every plot");
        assertEquals(String.valueOf(svgs), attribute(dom, "data-drawn"), "Chromium drew every plot");
        assertEquals("0", attribute(dom, "data-text-outside"), "no word of a plot runs outside it");
        assertEquals("2", attribute(dom, "data-summary-rows"), "a summary line per experiment");
        assertEquals("2", attribute(dom, "data-verdicts"), "a verdict per experiment");
        attribute(dom, "data-ready-ms");   // when the page was laid out and checked: the check ran to its end
    }

    /** An attribute the page's own script set on {@code body}, after Chromium ran it. */
    private static String attribute(String dom, String name) {
        Matcher m = Pattern.compile(name + "=\"(\\d+)\"").matcher(dom);
        assertTrue(m.find(), "the page's own check did not run (" + name + "): " + dom.substring(0,
                Math.min(300, dom.length())));
        return m.group(1);
    }

    @Test
    void aDirectoryThatIsNoExperimentIsOneLine(@TempDir Path dir) {
        JwarpCommandTest.Run r = JwarpCommandTest.run("report", dir.toString());
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("has no results.json and results.csv"), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
        r = JwarpCommandTest.run("report", dir.toString(), dir.resolve(".").toString());
        assertEquals(2, r.exit());
        assertEquals("jwarp: " + dir.resolve(".") + " is given twice: give each result directory once"
                + " (see 'jwarp report --help')", r.err().strip());
    }

    @Test
    void aResultsJsonOfAnotherSchemaOrVersionIsOneLine(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("results.csv"), "engines,connections\n1,1\n");
        Files.writeString(dir.resolve("results.json"), "{\n  \"schema\": \"jwarp-experiment-rss/9\",\n  \"results\": []\n}\n");
        JwarpCommandTest.Run r = JwarpCommandTest.run("report", dir.toString(), "--out", dir.resolve("r.html").toString());
        assertEquals(2, r.exit());
        assertEquals("jwarp: " + dir.resolve("results.json") + " is jwarp-experiment-rss/9, a version this jwarp does "
                + "not read; expected one of " + String.join(", ", org.jwarp.bench.report.ResultDirectory.SCHEMAS)
                + " (see 'jwarp report --help')", r.err().strip());
        Files.writeString(dir.resolve("results.json"), "{\"schema\": \"jwarp-bench/1\", \"rows\": []}\n");
        r = JwarpCommandTest.run("report", dir.toString(), "--out", dir.resolve("r.html").toString());
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("results.json is a jwarp-bench/1 document; expected one of "
                + String.join(", ", org.jwarp.bench.report.ResultDirectory.SCHEMAS)),
                r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
    }

    /** The DOM after load and scripts, from headless Chromium (Debian's package; .ci/run installs it). */
    static String chromium(Path page) throws Exception {
        String exe = Files.isExecutable(Path.of("/usr/bin/chromium")) ? "/usr/bin/chromium"
                : Files.isExecutable(Path.of("/usr/bin/chromium-browser")) ? "/usr/bin/chromium-browser" : null;
        if (exe == null) {
            fail("headless Chromium is needed to check the report: apt-get install chromium (.ci/run does)");
        }
        Process p = new ProcessBuilder(exe, "--headless", "--no-sandbox", "--disable-gpu", "--dump-dom",
                page.toUri().toString()).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        byte[] out = p.getInputStream().readAllBytes();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            fail("Chromium did not finish in 60 s");
        }
        return new String(out, java.nio.charset.StandardCharsets.UTF_8);
    }

    private static int count(String s, String what) {
        int n = 0;
        for (int i = s.indexOf(what); i >= 0; i = s.indexOf(what, i + 1)) {
            n++;
        }
        return n;
    }
}
