package org.jwarp.degen.testbed;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.HdrHistogram.Histogram;
import org.jwarp.degen.sys.Netns;

/**
 * Measures the testbed from outside the emulator: a TCP ping-pong and a bulk transfer between a
 * client on one host and a server on the other, both in this JVM on threads that entered the
 * hosts' namespaces ({@link Netns#enterForThisThread}). This is the cross-check of degen's own
 * delay-error statistics, and what the integration test and the benchmark measure with.
 */
public final class NetProbe {

    private static final long TIMEOUT_SECONDS = 120;

    private NetProbe() {
    }

    /** Result of a bulk transfer: goodput over the measured window, seen by the receiver. */
    public record Bulk(long bytes, long nanos) {
        public double bitsPerSecond() {
            return bytes * 8e9 / nanos;
        }
    }

    /**
     * Round-trip times of {@code count} ping-pongs of {@code size} bytes (after {@code warmup}
     * unrecorded ones), client in {@code clientNs}, echo server in {@code serverNs}.
     */
    public static Histogram pingPong(String clientNs, String serverNs, String serverAddr, int port,
                                     int warmup, int count, int size) throws IOException {
        Histogram rtt = new Histogram(60_000_000_000L, 3);
        CompletableFuture<Void> listening = new CompletableFuture<>();
        CompletableFuture<Void> server = runIn(serverNs, "probe-echo", () -> {
            try (ServerSocket ss = new ServerSocket()) {
                ss.setReuseAddress(true);
                ss.bind(new InetSocketAddress(serverAddr, port));
                listening.complete(null);
                try (Socket s = ss.accept()) {
                    s.setTcpNoDelay(true);
                    InputStream in = s.getInputStream();
                    OutputStream out = s.getOutputStream();
                    byte[] buf = new byte[size];
                    while (readFully(in, buf)) {
                        out.write(buf);
                    }
                }
            }
        }, listening);
        CompletableFuture<Void> client = listening.thenCompose(x -> runIn(clientNs, "probe-ping", () -> {
            try (Socket s = new Socket()) {
                s.setTcpNoDelay(true);
                s.connect(new InetSocketAddress(serverAddr, port), 10_000);
                InputStream in = s.getInputStream();
                OutputStream out = s.getOutputStream();
                byte[] buf = new byte[size];
                for (int i = 0; i < warmup + count; i++) {
                    long t0 = System.nanoTime();
                    out.write(buf);
                    if (!readFully(in, buf)) {
                        throw new IOException("echo server closed the connection");
                    }
                    long t1 = System.nanoTime();
                    if (i >= warmup) {
                        rtt.recordValue(Math.min(t1 - t0, rtt.getHighestTrackableValue()));
                    }
                }
            }
        }, null));
        await(client, server);
        return rtt;
    }

    /**
     * A bulk TCP transfer from {@code clientNs} to the server in {@code serverNs} for
     * {@code warmupNanos + measureNanos}; the receiver measures goodput over the last
     * {@code measureNanos} only (slow start excluded).
     */
    public static Bulk bulk(String clientNs, String serverNs, String serverAddr, int port,
                            long warmupNanos, long measureNanos) throws IOException {
        CompletableFuture<Void> listening = new CompletableFuture<>();
        long[] window = new long[2];
        CompletableFuture<Void> server = runIn(serverNs, "probe-sink", () -> {
            try (ServerSocket ss = new ServerSocket()) {
                ss.setReuseAddress(true);
                ss.bind(new InetSocketAddress(serverAddr, port));
                listening.complete(null);
                try (Socket s = ss.accept()) {
                    InputStream in = s.getInputStream();
                    byte[] buf = new byte[1 << 18];
                    long start = -1;
                    long markTime = 0;
                    long markBytes = 0;
                    long total = 0;
                    long lastTime = 0;
                    long lastBytes = 0;
                    int n;
                    while ((n = in.read(buf)) > 0) {
                        long now = System.nanoTime();
                        if (start < 0) {
                            start = now;
                        }
                        total += n;
                        if (now - start < warmupNanos) {
                            markTime = now;
                            markBytes = total;
                        } else if (now - start <= warmupNanos + measureNanos) {
                            lastTime = now;
                            lastBytes = total;
                        }
                    }
                    window[0] = lastBytes - markBytes;
                    window[1] = lastTime - markTime;
                }
            }
        }, listening);
        CompletableFuture<Void> client = listening.thenCompose(x -> runIn(clientNs, "probe-blast", () -> {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(serverAddr, port), 10_000);
                OutputStream out = s.getOutputStream();
                byte[] buf = new byte[1 << 16];
                // Sends a little longer than the receiver measures, so that the window is full.
                long end = System.nanoTime() + warmupNanos + measureNanos + 200_000_000L;
                while (System.nanoTime() - end < 0) {
                    out.write(buf);
                }
            }
        }, null));
        await(client, server);
        if (window[1] <= 0) {
            throw new IOException("bulk transfer measured nothing (no data after the warm-up)");
        }
        return new Bulk(window[0], window[1]);
    }

    private interface Body {
        void run() throws IOException;
    }

    /** Runs {@code body} on a new platform thread that first enters {@code ns}. */
    private static CompletableFuture<Void> runIn(String ns, String name, Body body, CompletableFuture<Void> alsoFail) {
        CompletableFuture<Void> done = new CompletableFuture<>();
        Thread t = new Thread(() -> {
            try {
                Netns.enterForThisThread(ns);
                body.run();
                done.complete(null);
            } catch (Throwable e) {
                done.completeExceptionally(e);
                if (alsoFail != null) {
                    alsoFail.completeExceptionally(e);
                }
            }
        }, name);
        t.setDaemon(true);
        t.start();
        return done;
    }

    private static void await(CompletableFuture<Void> client, CompletableFuture<Void> server) throws IOException {
        try {
            client.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
            server.get(TIMEOUT_SECONDS, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            Throwable c = e.getCause();
            throw c instanceof IOException io ? io : new IOException("probe failed: " + c, c);
        } catch (TimeoutException e) {
            throw new IOException("probe did not finish within " + TIMEOUT_SECONDS + " s (is the testbed forwarding?)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException("interrupted", e);
        }
    }

    private static boolean readFully(InputStream in, byte[] buf) throws IOException {
        int off = 0;
        while (off < buf.length) {
            int n = in.read(buf, off, buf.length - off);
            if (n < 0) {
                if (off == 0) {
                    return false;
                }
                throw new IOException("connection closed mid-message");
            }
            off += n;
        }
        return true;
    }
}
