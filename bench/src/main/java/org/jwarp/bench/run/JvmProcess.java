package org.jwarp.bench.run;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalInt;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.Consumer;
import org.jwarp.bench.perf.PerfDriver;

/**
 * A side of a run in a JVM of its own, started as a user would start it: this JVM's launcher and
 * class path, a main class and its arguments, behind a command prefix ({@code ip netns exec NS},
 * {@code taskset -c N}). Its standard output and error are one text, kept whole and handed line by
 * line to a listener; a server's port is the one it announces ({@link Listening}). The bench's
 * servers, the experiments' sides and their clients are all started here.
 */
public final class JvmProcess implements AutoCloseable {

    private final Process process;
    private final String what;
    private final StringBuilder output = new StringBuilder();
    private final CompletableFuture<Integer> port = new CompletableFuture<>();
    private final Thread reader;

    private JvmProcess(Process process, String what, Consumer<String> onLine) {
        this.process = process;
        this.what = what;
        reader = Thread.ofPlatform().daemon().name("jvm-process-output").start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(process.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    synchronized (output) {
                        output.append(line).append('\n');
                    }
                    onLine.accept(line);
                    OptionalInt p = port.isDone() ? OptionalInt.empty() : Listening.port(line);
                    if (p.isPresent()) {
                        port.complete(p.getAsInt());
                    }
                }
            } catch (IOException | RuntimeException e) {
                port.completeExceptionally(e);
            }
            port.completeExceptionally(new IOException("the " + what + " process ended before listening"));
        });
    }

    /**
     * Starts {@code mainClass ARGS} behind {@code prefix}.
     *
     * @param what the process, for errors
     */
    public static JvmProcess start(List<String> prefix, String mainClass, List<String> args, String what,
                                   Consumer<String> onLine) throws IOException {
        List<String> cmd = new ArrayList<>(prefix);
        cmd.add(ProcessHandle.current().info().command().orElse(
                System.getProperty("java.home") + File.separator + "bin" + File.separator + "java"));
        cmd.addAll(List.of("--enable-native-access=ALL-UNNAMED", "--add-opens", "java.base/sun.nio.ch=ALL-UNNAMED"));
        // a child's perf runs keep this process's warm-up bound (PerfDriver.WARMUP_MAX_PASSES)
        String warmUp = System.getProperty(PerfDriver.WARMUP_PROPERTY);
        if (warmUp != null) {
            cmd.add("-D" + PerfDriver.WARMUP_PROPERTY + "=" + warmUp);
        }
        cmd.addAll(List.of("-cp", System.getProperty("java.class.path"), mainClass));
        cmd.addAll(args);
        return new JvmProcess(new ProcessBuilder(cmd).redirectErrorStream(true).start(), what, onLine);
    }

    /** As {@link #start(List, String, List, String, Consumer)}, no listener. */
    public static JvmProcess start(List<String> prefix, String mainClass, List<String> args, String what)
            throws IOException {
        return start(prefix, mainClass, args, what, line -> { });
    }

    /** Runs a process to its end ({@code seconds}) and returns all it printed; an exit other than 0 is an error. */
    public static String run(List<String> prefix, String mainClass, List<String> args, String what,
                             Consumer<String> onLine, long seconds) throws IOException, InterruptedException {
        try (JvmProcess p = start(prefix, mainClass, args, what, onLine)) {
            return p.awaitOutput(seconds);
        }
    }

    /**
     * The port it announced, waiting up to 60 s.
     *
     * @throws IOException with what it printed, if it ended or failed first (it is then killed)
     */
    public int port() throws IOException, InterruptedException {
        try {
            return port.get(60, TimeUnit.SECONDS);
        } catch (ExecutionException | TimeoutException e) {
            process.destroyForcibly();
            String text = output();
            throw new IOException("the " + what + " did not start: " + (e.getCause() != null ? e.getCause() : e)
                    .getMessage() + (text.isEmpty() ? "" : "; it printed: " + text), e);
        }
    }

    /**
     * Waits up to {@code seconds} for it to end, then returns all it printed.
     *
     * @throws IOException with that output, if it did not end (it is then killed) or ended with an exit other than 0
     */
    public String awaitOutput(long seconds) throws IOException, InterruptedException {
        if (!process.waitFor(seconds, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("the " + what + " did not end within " + seconds + " s; it printed: " + output());
        }
        // the last lines (a result) may still be in the pipe: the reader takes them up to the end
        reader.join(java.time.Duration.ofSeconds(5));
        String text = output();
        if (process.exitValue() != 0) {
            throw new IOException("the " + what + " failed (exit " + process.exitValue() + "): " + text);
        }
        return text;
    }

    /** What it printed so far. */
    public String output() {
        synchronized (output) {
            return output.toString().strip();
        }
    }

    /** Its process id (behind a prefix that execs, such as {@code ip netns exec}, the JVM's). */
    public long pid() {
        return process.pid();
    }

    /** Kills it. */
    public void destroy() {
        process.destroyForcibly();
    }

    /** Gives it 30 s to end on its own (a server after its client), then kills it. */
    @Override
    public void close() throws InterruptedException {
        if (!process.waitFor(30, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
