package org.jwarp.engine.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ServerSocketChannel;
import java.nio.channels.SocketChannel;
import java.time.Duration;
import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import jdk.net.ExtendedSocketOptions;
import org.junit.jupiter.api.Test;

/** The peer-timeout options: within the bound, the keepalive idle time spread over a range, set on a real socket. */
class TcpLivenessTest {

    /** Below 5 s the probes' one-second granularity overshoots; TCP_USER_TIMEOUT still ends the connection in time. */
    @Test
    void keepaliveProbesEndWithinTheBound() {
        SplittableRandom random = new SplittableRandom(7);
        for (int seconds = 5; seconds <= 600; seconds++) {
            for (int draw = 0; draw < 20; draw++) {
                TcpLiveness.Options o = TcpLiveness.Options.of(Duration.ofSeconds(seconds), random);
                int bound = seconds;
                assertTrue(o.keepIdle() >= 1 && o.keepInterval() >= 1, o.toString());
                assertTrue(o.keepIdle() + o.keepCount() * o.keepInterval() <= bound,
                        "bound " + bound + " s: " + o);
                assertEquals(seconds * 1000, o.userTimeoutMillis());
            }
        }
    }

    @Test
    void theIdleTimeIsDrawnFromAQuarterToHalfOfTheBound() {
        SplittableRandom random = new SplittableRandom(11);
        Set<Integer> seen = new HashSet<>();
        for (int draw = 0; draw < 2000; draw++) {
            int idle = TcpLiveness.Options.of(Duration.ofSeconds(60), random).keepIdle();
            assertTrue(idle >= 15 && idle <= 30, "idle " + idle);
            seen.add(idle);
        }
        assertEquals(16, seen.size(), "every second from 15 to 30 drawn: " + seen);
    }

    @Test
    void theOptionsReachTheSocket() throws IOException {
        try (ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
             SocketChannel client = SocketChannel.open(server.getLocalAddress())) {
            TcpLiveness.apply(client, Duration.ofSeconds(60));
            assertTrue(client.getOption(StandardSocketOptions.SO_KEEPALIVE));
            int idle = client.getOption(ExtendedSocketOptions.TCP_KEEPIDLE);
            assertTrue(idle >= 15 && idle <= 30, "idle " + idle);
            assertEquals(10, client.getOption(ExtendedSocketOptions.TCP_KEEPINTERVAL));
            assertEquals(3, client.getOption(ExtendedSocketOptions.TCP_KEEPCOUNT));
        }
    }

    @Test
    void aZeroBoundSetsNothing() throws IOException {
        try (ServerSocketChannel server = ServerSocketChannel.open().bind(new InetSocketAddress("127.0.0.1", 0));
             SocketChannel client = SocketChannel.open(server.getLocalAddress())) {
            TcpLiveness.apply(client, Duration.ZERO);
            assertEquals(false, client.getOption(StandardSocketOptions.SO_KEEPALIVE));
        }
    }
}
