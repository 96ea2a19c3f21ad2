package org.jwarp.interop;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * tcpdump on the host loopback for one TCP port, started (and confirmed listening) before the
 * connection is opened, as tshark's MPA dissector must see the MPA Request and Reply. Packets are
 * handed over as they come ({@code --immediate-mode}) and also printed, so that stopping can wait
 * until both FINs of the session are in the file (libpcap otherwise holds packets back in blocks,
 * and a stop loses them).
 */
final class WireCapture implements AutoCloseable {

    private final Process process;
    private final Path file;
    private final StringBuffer stderr = new StringBuffer();
    private final CountDownLatch fins = new CountDownLatch(2);

    private WireCapture(Process process, Path file) {
        this.process = process;
        this.file = file;
    }

    /**
     * Starts {@code tcpdump -i lo -U -w FILE 'tcp port PORT'} and waits for its "listening on" line.
     *
     * @throws IllegalStateException if tcpdump is missing or does not start capturing
     */
    static WireCapture start(int port, Path file) throws InterruptedException {
        Process p;
        try {
            p = new ProcessBuilder("tcpdump", "-i", "lo", "--immediate-mode", "-U", "-l", "-n", "--print", "-w",
                    file.toString(), "tcp port " + port).start();
        } catch (IOException e) {
            throw new IllegalStateException("cannot run tcpdump (install it: apt-get install tcpdump): " + e.getMessage(), e);
        }
        WireCapture c = new WireCapture(p, file);
        CountDownLatch listening = new CountDownLatch(1);
        Thread reader = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getErrorStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    c.stderr.append(line).append('\n');
                    if (line.contains("listening on")) {
                        listening.countDown();
                    }
                }
            } catch (IOException e) {
                if (p.isAlive()) {
                    c.stderr.append("reading tcpdump's output failed: ").append(e.getMessage()).append('\n');
                }
            }
        }, "tcpdump-stderr");
        reader.setDaemon(true);
        reader.start();
        Thread printed = new Thread(() -> {
            try (BufferedReader r = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = r.readLine()) != null; ) {
                    if (line.contains("Flags [F")) {
                        c.fins.countDown();
                    }
                }
            } catch (IOException e) {
                if (p.isAlive()) {
                    c.stderr.append("reading tcpdump's packets failed: ").append(e.getMessage()).append('\n');
                }
            }
        }, "tcpdump-stdout");
        printed.setDaemon(true);
        printed.start();
        if (!listening.await(10, TimeUnit.SECONDS)) {
            p.destroyForcibly();
            throw new IllegalStateException("tcpdump did not start capturing: " + c.stderr);
        }
        return c;
    }

    Path file() {
        return file;
    }

    /** tcpdump's own report (its last lines: packets captured, received, dropped by the kernel). */
    String report() {
        return stderr.toString().strip().replace('\n', ' ');
    }

    /**
     * Waits (up to 10 s) until the session's two FINs were captured, then stops the capture
     * (SIGTERM: tcpdump closes the file) and waits for it.
     */
    @Override
    public void close() {
        try {
            if (!fins.await(10, TimeUnit.SECONDS)) {
                stderr.append("the session's FINs were not seen within 10 s\n");
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        process.destroy();
        try {
            if (!process.waitFor(10, TimeUnit.SECONDS)) {
                process.destroyForcibly();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            process.destroyForcibly();
        }
    }

    /**
     * Runs tshark with {@code args} and returns its standard output. TCP's heuristic dissectors go
     * first: {@code iwarp_mpa} is heuristic only, and an ephemeral port that another protocol owns
     * (EtherCAT's 34980, say) would otherwise hand the whole stream to that protocol's dissector.
     */
    static String tshark(Duration limit, String... args) {
        String[] cmd = new String[args.length + 3];
        cmd[0] = "tshark";
        cmd[1] = "-o";
        cmd[2] = "tcp.try_heuristic_first:TRUE";
        System.arraycopy(args, 0, cmd, 3, args.length);
        try {
            Process p = new ProcessBuilder(cmd).redirectError(ProcessBuilder.Redirect.DISCARD).start();
            byte[] out = p.getInputStream().readAllBytes();
            if (!p.waitFor(limit.toMillis(), TimeUnit.MILLISECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("tshark did not finish within " + limit);
            }
            if (p.exitValue() != 0) {
                throw new IllegalStateException("tshark " + String.join(" ", args) + " failed with exit " + p.exitValue());
            }
            return new String(out, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run tshark (install it: apt-get install tshark)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running tshark", e);
        }
    }
}
