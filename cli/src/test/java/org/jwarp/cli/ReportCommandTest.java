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
 * smallest form) rendered into one page, which headless Chromium then loads: every plot must be
 * drawn, and the page must name nothing outside itself.
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
        assertTrue(html.contains("TOE / Java sockets") && html.contains("Wake-ups per second on one engine thread"),
                "a verdict line per experiment");
        assertTrue(!html.contains("src=\"http") && !html.contains("href=\"http") && !html.contains("<link"),
                "self-contained: nothing loaded from elsewhere");
        int svgs = count(html, "<div class=\"plot\"");
        assertEquals(2 + 3, svgs, "the TOE run's 2 plots and the RSS run's 3");

        String dom = chromium(page);
        Matcher plots = Pattern.compile("data-plots=\"(\\d+)\"").matcher(dom);
        Matcher drawn = Pattern.compile("data-drawn=\"(\\d+)\"").matcher(dom);
        assertTrue(plots.find() && drawn.find(), "the page's own check did not run: " + dom.substring(0,
                Math.min(300, dom.length())));
        assertEquals(svgs, Integer.parseInt(plots.group(1)), "Chromium found every plot");
        assertEquals(svgs, Integer.parseInt(drawn.group(1)), "Chromium drew every plot");
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
        assertTrue(r.err().contains("results.json is a jwarp-bench/1 document; expected one of jwarp-experiment-toe/1"),
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
