package org.jwarp.cli.rping;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.lang.foreign.Arena;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.ConnectParams;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WrOpcode;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

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

    @Test
    void aPersistentServerServesOneClientAfterAnother() throws Exception {
        DeviceConfig config = DeviceConfig.defaults();
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), freePort());
        WatchedWriter serverOut = new WatchedWriter("listening on");
        Thread server = persistentValidatingServer(config, address, serverOut);
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

    /**
     * {@code rping -s -P} under a flood that costs its attacker nothing — 500 TCP connections that
     * never send an MPA Request, and 100 that send a valid Request (half peer-to-peer without their
     * RTR, half client/server without a ping) and then nothing — still serves every legitimate
     * client, one after another, at once.
     */
    @Test
    void aFloodOfSilentClientsLocksNoClientOut() throws Exception {
        DeviceConfig config = DeviceConfig.defaults();
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), freePort());
        WatchedWriter serverOut = new WatchedWriter("listening on");
        Thread server = persistentValidatingServer(config, address, serverOut);
        List<java.net.Socket> attackers = new java.util.ArrayList<>();
        try {
            for (int i = 0; i < 600; i++) {
                java.net.Socket s = new java.net.Socket(address.getAddress(), address.getPort());
                attackers.add(s);
                if (i >= 500) {
                    s.getOutputStream().write((i % 2 == 0 ? org.jwarp.wire.mpa.MpaVectors.P2P_REQUEST
                            : org.jwarp.wire.mpa.MpaVectors.JAVA_REQUEST).bytes());
                }
            }
            for (int client = 0; client < 5; client++) {
                StringWriter out = new StringWriter();
                Rping.run(config, new RpingOptions(false, address, 2, 100, true, true, false, false, TIMEOUT),
                        new PrintWriter(out, true));
                assertEquals(2, out.toString().lines().count(), "client " + client + ": " + out);
            }
            long deadline = System.nanoTime() + TIMEOUT.toNanos();
            while (serverOut.toString().lines().filter(l -> l.startsWith("server: 2 pings of 100 bytes")).count() < 5
                    && System.nanoTime() < deadline) {
                Thread.sleep(10);                      // the server's threads print their rates as they end
            }
        } finally {
            for (java.net.Socket s : attackers) {
                s.close();
            }
            server.interrupt();
            server.join(TIMEOUT.toMillis());
        }
        assertEquals(5, serverOut.toString().lines().filter(l -> l.startsWith("server: 2 pings of 100 bytes")).count(),
                serverOut.toString());
        assertTrue(serverOut.toString().contains("dropped the oldest of 64 clients that had not pinged yet"),
                "the silent requests filled the server's 64 places: " + serverOut);
    }

    @ParameterizedTest(name = "advertised size {0}")
    @ValueSource(ints = {0, 5, RpingPattern.MIN_SIZE - 1})
    void aValidatingServerRefusesAdvertsRpingWouldRefuseAndServesTheNextClient(int advertised) throws Exception {
        DeviceConfig config = DeviceConfig.defaults();
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), freePort());
        WatchedWriter serverOut = new WatchedWriter("listening on");
        Thread server = persistentValidatingServer(config, address, serverOut);
        // a client of our own that advertises a buffer of `advertised` bytes
        try (RdmaDevice dev = RdmaDevice.open(config);
             Arena arena = Arena.ofShared()) {
            ProtectionDomain pd = dev.allocPd();
            CompletionQueue cq = dev.createCq(16, null);
            QueuePair qp = dev.createQp(pd, QpInitAttr.builder(cq, cq).build());
            MemoryRegion buf = pd.registerMemory(arena.allocate(64),
                    Access.LOCAL_WRITE | Access.REMOTE_READ);
            CmEventQueue events = new CmEventQueue();
            dev.connectionManager().connect(address, qp, ConnectParams.of(new byte[0]), events);
            assertTrue(events.expect(CmEvent.Established.class, TIMEOUT, dev) != null);
            new RpingInfo(buf.iova(), buf.rkey(), advertised).writeTo(buf.segment(), 0);
            assertEquals(PostStatus.OK, qp.postSend(new SendWr().wrId(1)
                    .opcode(WrOpcode.SEND).addSge(buf, 0, RpingInfo.LENGTH)));
            CmEvent end = events.poll(TIMEOUT, dev);
            assertTrue(end instanceof CmEvent.Disconnected, "the server ends the connection: " + end);
        }
        // the same server still serves a well-behaved client
        StringWriter out = new StringWriter();
        Rping.run(config, new RpingOptions(false, address, 2, 100, true, true, false, false, TIMEOUT),
                new PrintWriter(out, true));
        assertEquals(2, out.toString().lines().count(), out.toString());
        server.interrupt();
        server.join(TIMEOUT.toMillis());
        assertTrue(serverOut.toString().contains("failed: the client's buffer of " + advertised
                + " bytes is smaller than rping's minimum of " + RpingPattern.MIN_SIZE), serverOut.toString());
        assertTrue(!serverOut.toString().contains("Exception"), "no stack trace: " + serverOut);
    }

    /**
     * Starts {@code jwarp rping -s -P -V -d -S 100} on {@code address} and waits until it listens; its
     * output goes to {@code serverOut}, ending with "server ended: ..." when it stops.
     */
    static Thread persistentValidatingServer(DeviceConfig config, InetSocketAddress address, WatchedWriter serverOut)
            throws InterruptedException {
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
        return server;
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
