package org.jwarp.interop;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.jwarp.cli.rping.RpingPattern;

/**
 * rping written against DiSNI's API alone ({@code DisniRping} on jwarp-disni) meets jwarp's own
 * {@code jwarp rping}, on the verbs API, over 127.0.0.1, in both roles: every ping's data is
 * checked on both sides against rping's pattern, and the client compares what came back ({@code -V}).
 * The same program meets siw's rping in {@link SiwInteropTest}.
 */
class DisniRpingTest {

    private static final int COUNT = 5;

    @ParameterizedTest
    @ValueSource(ints = {RpingPattern.MIN_SIZE, 1001, 65535})
    void disniClientJwarpServer(int size) throws Exception {
        int port = freePort();
        CellRunner.Jwarp server = CellRunner.Jwarp.start(List.of("rping", "-s", "-a", "127.0.0.1", "-p", "" + port,
                "-S", "" + RpingPattern.MAX_SIZE, "-v", "-d", "--timeout", "30"), "listening on");
        assertTrue(server.awaitMarker(Duration.ofSeconds(20)), "jwarp rping -s did not listen: " + server.err);
        CellRunner.Jwarp client = CellRunner.Jwarp.run(HostRping.DISNI, List.of("-c", "-a", "127.0.0.1", "-p", "" + port,
                "-C", "" + COUNT, "-S", "" + size, "-v", "-V", "-t", "30"));
        assertEquals(0, client.exit, client.out + client.err);
        assertTrue(server.await(Duration.ofSeconds(30)), "jwarp's server did not end after the client left");
        assertEquals(0, server.exit, server.out + server.err);
        assertEquals(expected("ping data: ", size), lines(client.out, "ping data: "));
        assertEquals(expected("server ping data: ", size), lines(server.out, "server ping data: "));
    }

    @ParameterizedTest
    @ValueSource(ints = {64, 4097, 65535})
    void jwarpClientDisniServer(int size) throws Exception {
        int port = freePort();
        CellRunner.Jwarp server = CellRunner.Jwarp.start(HostRping.DISNI, List.of("-s", "-a", "127.0.0.1", "-p", "" + port,
                "-S", "" + RpingPattern.MAX_SIZE, "-v", "-t", "30"), "listening on");
        assertTrue(server.awaitMarker(Duration.ofSeconds(20)), "DisniRping -s did not listen: " + server.err);
        CellRunner.Jwarp client = CellRunner.Jwarp.run(List.of("rping", "-c", "-a", "127.0.0.1", "-p", "" + port,
                "-C", "" + COUNT, "-S", "" + size, "-v", "-V", "--timeout", "30"));
        assertEquals(0, client.exit, client.out + client.err);
        assertTrue(server.await(Duration.ofSeconds(30)), "DisniRping's server did not end after the client left");
        assertEquals(0, server.exit, server.out + server.err);
        assertTrue(server.out.contains("server: " + COUNT + " pings of " + size + " bytes"), server.out);
        assertEquals(expected("ping data: ", size), lines(client.out, "ping data: "));
        assertEquals(expected("server ping data: ", size), lines(server.out, "server ping data: "));
    }

    /** A server whose buffer is too small for the client's ends the connection, and the DiSNI client says so in one line. */
    @org.junit.jupiter.api.Test
    void disniClientSeesTheServerLeave() throws Exception {
        int port = freePort();
        CellRunner.Jwarp server = CellRunner.Jwarp.start(List.of("rping", "-s", "-a", "127.0.0.1", "-p", "" + port,
                "-S", "64", "-d", "--timeout", "30"), "listening on");
        assertTrue(server.awaitMarker(Duration.ofSeconds(20)), server.err);
        CellRunner.Jwarp client = CellRunner.Jwarp.run(HostRping.DISNI, List.of("-c", "-a", "127.0.0.1", "-p", "" + port,
                "-C", "1", "-S", "100", "-t", "30"));
        assertEquals(1, client.exit, client.out + client.err);
        assertTrue(client.err.contains("the peer disconnected while we waited for the server's go-ahead"), client.err);
        server.await(Duration.ofSeconds(30));
    }

    private static List<String> expected(String prefix, int size) {
        List<String> l = new ArrayList<>();
        for (int i = 0; i < COUNT; i++) {
            l.add(prefix + RpingPattern.expectedLine(size, i));
        }
        return l;
    }

    private static List<String> lines(String out, String prefix) {
        return out.lines().filter(l -> l.startsWith(prefix)).toList();
    }

    private static int freePort() throws IOException {
        try (ServerSocket s = new ServerSocket(0)) {
            return s.getLocalPort();
        }
    }
}
