package org.jwarp.cli;

import java.io.BufferedReader;
import java.io.File;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A jwarp server in a process of its own, started as a user would start it: this JVM's launcher
 * and class path, and a {@code jwarp} command line. Its port is the one it announces ("waiting for
 * a client on port N", as the perf servers say on standard error).
 */
final class ServerProcess {
    private static final Pattern WAITING = Pattern.compile("waiting for a client on port (\\d+)");

    private final Process process;
    private final InetSocketAddress address;
    private final StringBuilder output;
    private final String what;

    private ServerProcess(Process process, InetSocketAddress address, StringBuilder output, String what) {
        this.process = process;
        this.address = address;
        this.output = output;
        this.what = what;
    }

    /** Starts {@code jwarp ARGS...} and waits (up to 60 s) until it says where it listens. */
    static ServerProcess start(List<String> args) throws IOException, InterruptedException {
        List<String> cmd = new ArrayList<>();
        cmd.add(ProcessHandle.current().info().command().orElse(
                System.getProperty("java.home") + File.separator + "bin" + File.separator + "java"));
        cmd.add("--enable-native-access=ALL-UNNAMED");
        cmd.add("--add-opens");
        cmd.add("java.base/sun.nio.ch=ALL-UNNAMED");
        cmd.add("-cp");
        cmd.add(System.getProperty("java.class.path"));
        cmd.add(JwarpCommand.class.getName());
        cmd.addAll(args);
        String what = args.getFirst();
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        StringBuilder output = new StringBuilder();
        CompletableFuture<Integer> port = new CompletableFuture<>();
        Thread.ofPlatform().daemon().name("jwarp-server-output").start(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(),
                    StandardCharsets.UTF_8))) {
                for (String line = r.readLine(); line != null; line = r.readLine()) {
                    synchronized (output) {
                        output.append(line).append('\n');
                    }
                    Matcher m = WAITING.matcher(line);
                    if (m.find()) {
                        port.complete(Integer.parseInt(m.group(1)));
                    }
                }
            } catch (IOException e) {
                port.completeExceptionally(e);
            }
            port.completeExceptionally(new IOException("the server process ended before listening"));
        });
        try {
            int n = port.get(60, TimeUnit.SECONDS);
            return new ServerProcess(p, new InetSocketAddress(InetAddress.getLoopbackAddress(), n), output, what);
        } catch (ExecutionException | TimeoutException e) {
            p.destroyForcibly();
            String text = text(output);
            throw new IOException("the " + what + " server process did not start: " + e.getMessage()
                    + (text.isEmpty() ? "" : "; it printed: " + text), e);
        }
    }

    InetSocketAddress address() {
        return address;
    }

    void awaitExit() throws InterruptedException, IOException {
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            throw new IOException("the " + what + " server process did not end after its run");
        }
        if (process.exitValue() != 0) {
            throw new IOException("the " + what + " server process failed (exit " + process.exitValue() + "): "
                    + text(output));
        }
    }

    /** What it printed so far. */
    String output() {
        return text(output);
    }

    void destroy() {
        process.destroyForcibly();
    }

    private static String text(StringBuilder output) {
        synchronized (output) {
            return output.toString().strip();
        }
    }
}
