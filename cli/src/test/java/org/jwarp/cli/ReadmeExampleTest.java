package org.jwarp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The documentation's complete programs (README's "Using it as a library", the offloaded-sockets
 * page's example), taken out of the pages as they stand, compiled against the project's classes
 * and run as their own processes, the way a Java developer would: an example the build compiles
 * cannot drift from the API.
 */
class ReadmeExampleTest {

    @Test
    void theReadmeExampleCompilesAndRuns(@TempDir Path dir) throws Exception {
        assertEquals(List.of("server got: hello, iWARP"), compileAndRun(dir, "README.md", "## Using it as a library", "HelloRdma"),
                "the example prints the bytes the WRITE placed, and nothing else");
    }

    @Test
    void theReadmeOffloadedSocketsExampleCompilesAndRuns(@TempDir Path dir) throws Exception {
        assertEquals(List.of("peer got: hello, TOE"), compileAndRun(dir, "docs/offloaded-sockets.md", "# Offloaded sockets", "HelloToe"));
    }

    /**
     * Compiles the first Java block under {@code heading} of the page {@code page} (relative to the
     * repository's root) as class {@code name} against the
     * project's classes, runs it as its own process and returns the lines it printed.
     */
    private static List<String> compileAndRun(Path dir, String page, String heading, String name) throws Exception {
        String source = javaBlockUnder(Files.readString(Path.of("..").resolve(page)), heading);
        Path file = dir.resolve(name + ".java");
        Files.writeString(file, source);
        String classpath = System.getProperty("java.class.path");
        JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
        int rc = javac.run(null, null, null, "-d", dir.toString(), "-cp", classpath, file.toString());
        assertEquals(0, rc, page + "'s example under '" + heading + "' does not compile against the API");

        Path out = dir.resolve("out.txt");
        Process p = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED",
                "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED", "-cp", dir + File.pathSeparator + classpath, name)
                .redirectErrorStream(true).redirectOutput(out.toFile()).start();
        if (!p.waitFor(60, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new AssertionError(page + "'s example " + name + " did not finish in 60 s: " + Files.readString(out));
        }
        String printed = Files.readString(out, StandardCharsets.UTF_8);
        assertEquals(0, p.exitValue(), printed);
        return printed.lines().filter(l -> !l.isBlank()).toList();
    }

    /** The first ```java block after {@code heading}. */
    static String javaBlockUnder(String markdown, String heading) throws IOException {
        int at = markdown.indexOf(heading);
        assertTrue(at >= 0, "the page has no '" + heading + "' section");
        int start = markdown.indexOf("```java\n", at);
        assertTrue(start >= 0, "no ```java block under '" + heading + "'");
        start += "```java\n".length();
        int end = markdown.indexOf("\n```", start);
        assertTrue(end > start, "the ```java block under '" + heading + "' is not closed");
        return markdown.substring(start, end + 1);
    }
}
