package org.jwarp.engine.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.MethodHandle;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import jdk.net.ExtendedSocketOptions;
import org.junit.jupiter.api.Test;
import org.jwarp.sys.Downcalls;

/** The options set once on a listening socket are every accepted socket's, with no call of its own. */
class ListeningOptionsTest {

    private static final int IPPROTO_TCP = 6;
    private static final int TCP_USER_TIMEOUT = 18;

    @Test
    void anAcceptedSocketHasNoDelayAndThePeerTimeoutOfItsListener() throws Throwable {
        assumeTrue(System.getProperty("os.name").startsWith("Linux") && SocketDescriptor.why() == null,
                "Linux, with sockets' descriptors readable");
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress("127.0.0.1", 0));
            assertTrue(ListeningOptions.inherit(server, Duration.ofSeconds(30)));
            try (SocketChannel client = SocketChannel.open(server.getLocalAddress());
                 SocketChannel accepted = server.accept()) {
                assertTrue(accepted.getOption(StandardSocketOptions.TCP_NODELAY));
                assertTrue(accepted.getOption(StandardSocketOptions.SO_KEEPALIVE));
                // what TcpLiveness gives a connected socket for 30 s, with the latest idle time of its range
                assertEquals(15, accepted.getOption(ExtendedSocketOptions.TCP_KEEPIDLE));
                assertEquals(5, accepted.getOption(ExtendedSocketOptions.TCP_KEEPINTERVAL));
                assertEquals(3, accepted.getOption(ExtendedSocketOptions.TCP_KEEPCOUNT));
                assertEquals(30_000, userTimeout(accepted));
                assertFalse(client.getOption(StandardSocketOptions.SO_KEEPALIVE), "the client's socket is its own");
            }
        }
    }

    @Test
    void eachAcceptedSocketDrawsItsOwnIdleTime() throws Throwable {
        assumeTrue(System.getProperty("os.name").startsWith("Linux") && SocketDescriptor.why() == null,
                "Linux, with sockets' descriptors readable");
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress("127.0.0.1", 0), 64);
            assertTrue(ListeningOptions.inherit(server, Duration.ofSeconds(60)));
            java.util.Set<Integer> idles = new java.util.HashSet<>();
            for (int i = 0; i < 40; i++) {
                try (SocketChannel client = SocketChannel.open(server.getLocalAddress());
                     SocketChannel accepted = server.accept()) {
                    ListeningOptions.drawIdle(accepted, Duration.ofSeconds(60));
                    int idle = accepted.getOption(ExtendedSocketOptions.TCP_KEEPIDLE);
                    assertTrue(idle >= 15 && idle <= 30, "a quarter to half of the bound: " + idle);
                    assertEquals(10, accepted.getOption(ExtendedSocketOptions.TCP_KEEPINTERVAL));
                    idles.add(idle);
                }
            }
            assertTrue(idles.size() > 1, "connections accepted together do not probe together: " + idles);
        }
    }

    @Test
    void withoutAPeerTimeoutOnlyNoDelayIsGiven() throws Throwable {
        assumeTrue(System.getProperty("os.name").startsWith("Linux") && SocketDescriptor.why() == null,
                "Linux, with sockets' descriptors readable");
        try (ServerSocketChannel server = ServerSocketChannel.open()) {
            server.bind(new InetSocketAddress("127.0.0.1", 0));
            assertTrue(ListeningOptions.inherit(server, Duration.ZERO));
            try (SocketChannel client = SocketChannel.open(server.getLocalAddress());
                 SocketChannel accepted = server.accept()) {
                assertTrue(accepted.getOption(StandardSocketOptions.TCP_NODELAY));
                assertFalse(accepted.getOption(StandardSocketOptions.SO_KEEPALIVE));
                assertEquals(0, userTimeout(accepted));
            }
        }
    }

    private static int userTimeout(SocketChannel ch) throws Throwable {
        MethodHandle getsockopt = Downcalls.find("getsockopt", FunctionDescriptor.of(ValueLayout.JAVA_INT,
                ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.JAVA_INT, ValueLayout.ADDRESS,
                ValueLayout.ADDRESS)).orElseThrow();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment value = arena.allocate(ValueLayout.JAVA_INT);
            MemorySegment length = arena.allocateFrom(ValueLayout.JAVA_INT, Integer.BYTES);
            int rc = (int) getsockopt.invokeExact(Downcalls.captureBuffer(arena), SocketDescriptor.of(ch), IPPROTO_TCP,
                    TCP_USER_TIMEOUT, value, length);
            assertEquals(0, rc);
            return value.get(ValueLayout.JAVA_INT, 0);
        }
    }
}
