package org.jwarp.bench.transport.sockets;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.ByteBuffer;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import org.jwarp.bench.perf.PerfException;
import org.junit.jupiter.api.Test;

/** The sockets setup the perf tests' sessions and the experiments' sides share. */
class SocketSetupTest {

    private static final InetAddress LOOPBACK = InetAddress.getLoopbackAddress();

    @Test
    void aClientConnectsAndItsBytesArrive() throws Exception {
        try (ServerSocketChannel l = SocketSetup.listen(new InetSocketAddress(LOOPBACK, 0), 1);
             SocketChannel c = SocketSetup.connect(new InetSocketAddress(LOOPBACK, SocketSetup.port(l)),
                     Duration.ofSeconds(5), "", "");
             SocketChannel s = SocketSetup.accept(l, Duration.ofSeconds(5))) {
            c.write(ByteBuffer.wrap(new byte[] {1, 2, 3}));
            ByteBuffer got = ByteBuffer.allocate(3);
            while (got.hasRemaining()) {
                s.read(got);
            }
            assertEquals(ByteBuffer.wrap(new byte[] {1, 2, 3}), got.flip());
            assertEquals(c.getLocalAddress(), s.getRemoteAddress());
        }
    }

    @Test
    void failuresAreOneLineEach() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, LOOPBACK)) {
            int port = taken.getLocalPort();
            PerfException inUse = assertThrows(PerfException.class,
                    () -> SocketSetup.listen(new InetSocketAddress(LOOPBACK, port), 1));
            assertEquals("port " + port + " is in use: stop what uses it, or give another port with -p",
                    inUse.getMessage());
        }
        int free;
        try (ServerSocket probe = new ServerSocket(0, 1, LOOPBACK)) {
            free = probe.getLocalPort();
        }
        PerfException refused = assertThrows(PerfException.class, () -> SocketSetup.connect(
                new InetSocketAddress("127.0.0.1", free), Duration.ofSeconds(5), "a jwarp server at ", " (start it first)"));
        assertEquals("cannot reach a jwarp server at 127.0.0.1:" + free + ": Connection refused (start it first)",
                refused.getMessage());
        try (ServerSocketChannel l = SocketSetup.listen(new InetSocketAddress(LOOPBACK, 0), 1)) {
            PerfException none = assertThrows(PerfException.class, () -> SocketSetup.accept(l, Duration.ofMillis(200)));
            assertEquals("no client connected in 0 s", none.getMessage());
        }
        PerfException unknown = assertThrows(PerfException.class, () -> SocketSetup.connect(
                InetSocketAddress.createUnresolved("no-such-host.invalid", 1), Duration.ofSeconds(1), "", ""));
        assertTrue(unknown.getMessage().startsWith("unknown host 'no-such-host.invalid'"), unknown.getMessage());
    }
}
