package org.jwarp.bench.run;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The C busy-poll ping-pong ({@code pingpong.c} beside this class's resources): what a program with
 * no runtime reaches on this kernel's TCP, the floor under both jwarp and Java's busy-poll sockets.
 * It is compiled once per source text with the machine's C compiler ({@code $CC}, else {@code cc})
 * into the temporary directory, and runs as two processes over 127.0.0.1, as the two-process
 * benchmarks do. Where there is no C compiler, {@link #why()} says so in one line and the
 * benchmark leaves the baseline out; jwarp itself needs none.
 */
public final class CPingPong {

    /** One run: one-way time (half the round trip), median and 99th percentile, in µs. */
    public record Result(double typicalMicros, double p99Micros, long rounds) {
    }

    private static final String SOURCE = "/org/jwarp/bench/baseline/pingpong.c";
    private static final long TIMEOUT_SECONDS = 120;

    private static Path binary;
    private static String whyNot;

    private CPingPong() {
    }

    /** Null if the baseline can be built and run here, else why not (one line). */
    public static synchronized String why() {
        if (binary == null && whyNot == null) {
            try {
                binary = build();
            } catch (IOException e) {
                whyNot = e.getMessage();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return "interrupted while compiling the C baseline";
            }
        }
        return whyNot;
    }

    /**
     * One ping-pong of {@code rounds} measured rounds of {@code size} bytes after {@code warmup}
     * unmeasured ones; every echo is checked by the client, every message by the server.
     *
     * @throws IOException naming the process that failed and what it printed
     */
    public static Result run(int size, long rounds, long warmup) throws IOException, InterruptedException {
        String why = why();
        if (why != null) {
            throw new IOException("the C ping-pong baseline cannot run here: " + why);
        }
        Process server = new ProcessBuilder(binary.toString(), "server").start();
        Process client = null;
        try {
            BufferedReader serverOut = new BufferedReader(new InputStreamReader(server.getInputStream(),
                    StandardCharsets.US_ASCII));
            String portLine = serverOut.readLine();
            if (portLine == null || !portLine.startsWith("port ")) {
                throw failed("server", server, portLine);
            }
            client = new ProcessBuilder(binary.toString(), "client", portLine.substring(5).strip(),
                    Integer.toString(size), Long.toString(rounds), Long.toString(warmup)).start();
            String line = new String(client.getInputStream().readAllBytes(), StandardCharsets.US_ASCII).strip();
            if (!client.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS) || client.exitValue() != 0) {
                throw failed("client", client, line);
            }
            if (!server.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS) || server.exitValue() != 0) {
                throw failed("server", server, null);
            }
            String[] f = line.split(" ");
            if (f.length != 3) {
                throw new IOException("the C ping-pong client printed '" + line + "', not 'typical_ns p99_ns rounds'");
            }
            return new Result(Long.parseLong(f[0]) / 1e3, Long.parseLong(f[1]) / 1e3, Long.parseLong(f[2]));
        } finally {
            server.destroyForcibly();
            if (client != null) {
                client.destroyForcibly();
            }
        }
    }

    private static IOException failed(String role, Process p, String stdout) throws InterruptedException {
        p.waitFor(5, TimeUnit.SECONDS);
        String err = readAll(p.getErrorStream());
        return new IOException("the C ping-pong " + role + " failed" + (p.isAlive() ? " (still running)" : " (exit "
                + p.exitValue() + ")") + (err.isEmpty() ? "" : ": " + err) + (stdout == null || stdout.isEmpty()
                ? "" : "; it printed: " + stdout));
    }

    private static String readAll(InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            return "";
        }
    }

    /** Compiles the source unless this text's binary is already there (setup path). */
    private static Path build() throws IOException, InterruptedException {
        byte[] source;
        try (InputStream in = CPingPong.class.getResourceAsStream(SOURCE)) {
            if (in == null) {
                throw new IOException("the C source " + SOURCE + " is missing from the class path");
            }
            source = in.readAllBytes();
        }
        String compiler = System.getenv().getOrDefault("CC", "cc");
        Path dir = Path.of(System.getProperty("java.io.tmpdir"), "jwarp-c-baseline-" + digest(source));
        Path exe = dir.resolve("pingpong");
        if (Files.isExecutable(exe)) {
            return exe;
        }
        Files.createDirectories(dir);
        Path src = Files.write(Files.createTempFile(dir, "pingpong", ".c"), source);
        Path tmp = dir.resolve("pingpong." + ProcessHandle.current().pid());
        List<String> cmd = new ArrayList<>(List.of(compiler, "-O2", "-o", tmp.toString(), src.toString()));
        Process p;
        try {
            p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        } catch (IOException e) {
            throw new IOException("no C compiler: '" + compiler + "' could not be started (install gcc, or set CC)");
        }
        String out = readAll(p.getInputStream());
        if (!p.waitFor(TIMEOUT_SECONDS, TimeUnit.SECONDS) || p.exitValue() != 0) {
            p.destroyForcibly();
            throw new IOException("'" + String.join(" ", cmd) + "' failed: " + out);
        }
        Files.deleteIfExists(src);
        try {
            Files.move(tmp, exe, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } catch (AtomicMoveNotSupportedException e) {
            Files.move(tmp, exe, StandardCopyOption.REPLACE_EXISTING);
        }
        return exe;
    }

    private static String digest(byte[] source) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(source), 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("SHA-256 is missing from this JDK", e);
        }
    }
}
