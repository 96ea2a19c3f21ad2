package org.jwarp.cli.rping;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jwarp.verbs.DeviceConfig;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** jwarp rping against jwarp rping over loopback TCP, both sides in this JVM, data validated both ways. */
class RpingLoopbackTest {

    private static final Duration TIMEOUT = Duration.ofSeconds(20);

    static int freePort() throws Exception {
        try (ServerSocket s = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return s.getLocalPort();
        }
    }

    @ParameterizedTest(name = "size {0}, MPA rev {1}, p2p {2}, crc {3}")
    @CsvSource({"23, 2, true, PREFERRED", "64, 2, false, OFF", "1443, 1, false, PREFERRED", "65535, 2, true, OFF",
            "4097, 2, true, REQUIRED"})
    void pingsAreEchoedAndValidated(int size, int rev, boolean p2p, DeviceConfig.CrcPolicy crc) throws Exception {
        DeviceConfig config = DeviceConfig.builder().mpaRevision(rev).peerToPeer(p2p).crcPolicy(crc).build();
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), freePort());
        WatchedWriter serverOut = new WatchedWriter("listening on");
        // the server starts listening before the client connects: it reports "listening" in debug mode
        CompletableFuture<Void> server = CompletableFuture.runAsync(() -> {
            try {
                Rping.run(config, new RpingOptions(true, address, 0, RpingPattern.MAX_SIZE, true, true, false, true, TIMEOUT),
                        new PrintWriter(serverOut, true));
            } catch (RpingException e) {
                throw new IllegalStateException(e.getMessage(), e);
            }
        });
        serverOut.await(TIMEOUT);
        StringWriter clientOut = new StringWriter();
        Rping.run(config, new RpingOptions(false, address, 3, size, true, true, false, false, TIMEOUT),
                new PrintWriter(clientOut, true));
        server.get(TIMEOUT.toSeconds(), TimeUnit.SECONDS);

        List<String> lines = clientOut.toString().lines().toList();
        assertEquals(List.of("ping data: " + RpingPattern.expectedLine(size, 0),
                "ping data: " + RpingPattern.expectedLine(size, 1),
                "ping data: " + RpingPattern.expectedLine(size, 2)), lines);
        List<String> serverLines = serverOut.toString().lines().filter(l -> l.startsWith("server ping data: ")).toList();
        assertEquals(List.of("server ping data: " + RpingPattern.expectedLine(size, 0),
                "server ping data: " + RpingPattern.expectedLine(size, 1),
                "server ping data: " + RpingPattern.expectedLine(size, 2)), serverLines);
        assertTrue(serverOut.toString().contains("server: 3 pings of " + size + " bytes"), serverOut.toString());
    }

    @org.junit.jupiter.api.Test
    void aPersistentServerServesOneClientAfterAnother() throws Exception {
        DeviceConfig config = DeviceConfig.defaults();
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), freePort());
        WatchedWriter serverOut = new WatchedWriter("listening on");
        Thread server = new Thread(() -> {
            try {
                Rping.run(config, new RpingOptions(true, address, 0, 100, false, true, true, true, TIMEOUT),
                        new PrintWriter(serverOut, true));
            } catch (RpingException e) {
                serverOut.write("server ended: " + e.getMessage() + "\n");
            }
        }, "rping-server");
        server.start();
        serverOut.await(TIMEOUT);
        for (int client = 0; client < 2; client++) {
            StringWriter out = new StringWriter();
            Rping.run(config, new RpingOptions(false, address, 2, 100, true, true, false, false, TIMEOUT),
                    new PrintWriter(out, true));
            assertEquals(2, out.toString().lines().count(), out.toString());
        }
        server.interrupt();
        server.join(TIMEOUT.toMillis());
        assertTrue(serverOut.toString().contains("server ended: interrupted"), serverOut.toString());
        assertEquals(2, serverOut.toString().lines().filter(l -> l.startsWith("server: 2 pings of 100 bytes")).count(),
                serverOut.toString());
    }

    /** Output that signals when a line containing a marker has been written. */
    static final class WatchedWriter extends StringWriter {
        private final String marker;
        private final java.util.concurrent.CountDownLatch seen = new java.util.concurrent.CountDownLatch(1);

        WatchedWriter(String marker) {
            this.marker = marker;
        }

        @Override
        public void flush() {
            super.flush();
            if (toString().contains(marker)) {
                seen.countDown();
            }
        }

        void await(Duration timeout) throws InterruptedException {
            if (!seen.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new AssertionError("no '" + marker + "' within " + timeout + ": " + this);
            }
        }
    }
}
