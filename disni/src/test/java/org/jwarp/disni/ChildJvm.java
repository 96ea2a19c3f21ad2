package org.jwarp.disni;

import static org.junit.jupiter.api.Assertions.assertFalse;

import java.io.File;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

/**
 * A program from Maven Central run in a JVM of its own, with jwarp-disni in place of DiSNI: the class
 * path is the test's (jwarp-disni's classes, jwarp's modules, the example jars, slf4j, commons-cli),
 * which holds no disni jar: the build excludes it from DaRPC's dependencies.
 */
final class ChildJvm implements AutoCloseable {
    private static final Pattern DISNI_JAR = Pattern.compile(".*[/\\\\]disni-[0-9.]+\\.jar$");

    private final Process process;
    private final Path out;

    private ChildJvm(Process process, Path out) {
        this.process = process;
        this.out = out;
    }

    /** The test's class path, checked to hold no real DiSNI implementation. */
    static String classPath() {
        String cp = System.getProperty("surefire.test.class.path", System.getProperty("java.class.path"));
        StringBuilder absolute = new StringBuilder();
        for (String entry : cp.split(File.pathSeparator)) {
            assertFalse(DISNI_JAR.matcher(entry).matches(), "the real DiSNI jar is on the class path: " + entry);
            absolute.append(absolute.isEmpty() ? "" : File.pathSeparator).append(Path.of(entry).toAbsolutePath());
        }
        return absolute.toString();
    }

    static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }

    static ChildJvm start(String name, String mainClass, String... args) throws IOException {
        return start(name, List.of(), mainClass, args);
    }

    /** As {@link #start(String, String, String...)}, with {@code jvmOptions} (system properties, say) before the class. */
    static ChildJvm start(String name, List<String> jvmOptions, String mainClass, String... args) throws IOException {
        List<String> cmd = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "--enable-native-access=ALL-UNNAMED"));
        cmd.addAll(jvmOptions);
        cmd.addAll(List.of("-cp", classPath(), mainClass));
        cmd.addAll(List.of(args));
        Path dir = Path.of("target", "child-jvms");
        Files.createDirectories(dir);
        Path out = dir.resolve(name + ".out");
        // in target/child-jvms: DaRPC's client writes its datalog file into its working directory
        Process p = new ProcessBuilder(cmd).directory(dir.toFile()).redirectErrorStream(true)
                .redirectOutput(out.toFile()).start();
        return new ChildJvm(p, out);
    }

    String output() throws IOException {
        return Files.readString(out, StandardCharsets.UTF_8);
    }

    /** Waits until the output contains {@code text}; false if the process ended or time ran out first. */
    boolean awaitOutput(String text, long seconds) throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(seconds);
        while (System.nanoTime() < deadline) {
            if (output().contains(text)) {
                return true;
            }
            if (!process.isAlive()) {
                return output().contains(text);
            }
            Thread.sleep(50);
        }
        return false;
    }

    /** The exit code, or -1 if it did not exit within {@code seconds} (it is then killed). */
    int awaitExit(long seconds) throws InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            return -1;
        }
        return process.exitValue();
    }

    @Override
    public void close() throws InterruptedException {
        if (process.isAlive()) {
            process.destroy();
            if (!process.waitFor(5, TimeUnit.SECONDS)) {
                process.destroyForcibly().waitFor(5, TimeUnit.SECONDS);
            }
        }
    }
}
