package org.jwarp.engine.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;

/**
 * The setup path's own socket calls ({@code getsockname}, {@code getsockopt(TCP_MAXSEG)},
 * {@code setsockopt}) read and write what Java's socket calls see, on several threads at once.
 */
class SocketCallsTest {

    @Test
    void socketCallsOnManyThreadsSeeWhatJavaSees() throws Exception {
        Assumptions.assumeTrue(BoundAddress.available(), "socket descriptors readable");
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 512);   // never accepted: room for all
            List<CompletableFuture<Void>> threads = new ArrayList<>();
            for (int t = 0; t < 4; t++) {
                threads.add(CompletableFuture.runAsync(() -> {
                    for (int i = 0; i < 50; i++) {
                        try (SocketChannel ch = SocketChannel.open(server.getLocalAddress())) {
                            assertEquals(ch.getLocalAddress(), BoundAddress.of(ch), "getsockname");
                            int mss = TcpMss.of(ch);
                            assertTrue(mss > 0 && mss <= 65_495, "loopback MSS " + mss);
                            int fd = SocketDescriptor.of(ch);
                            boolean on = i % 2 == 0;
                            assertEquals(0, Setsockopt.set(fd, Setsockopt.IPPROTO_TCP, Setsockopt.TCP_NODELAY, on ? 1 : 0));
                            assertEquals(on, ch.getOption(StandardSocketOptions.TCP_NODELAY), "setsockopt");
                            assertEquals(9 /* EBADF */, Setsockopt.set(-1, Setsockopt.IPPROTO_TCP,
                                    Setsockopt.TCP_NODELAY, 1), "errno of a failed call");
                        } catch (java.io.IOException e) {
                            throw new java.io.UncheckedIOException(e);
                        }
                    }
                }, r -> Thread.ofPlatform().start(r)));
            }
            for (CompletableFuture<Void> f : threads) {
                f.get();
            }
        }
    }
}
