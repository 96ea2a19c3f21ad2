package org.jwarp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * perftest's model: a server started with defaults (no host) serves one client, whose workload
 * options it takes; both print the same rows.
 */
class PerfClientServerTest {

    @ParameterizedTest
    @ValueSource(strings = {"jwarp", "sockets-nio"})
    void aDefaultServerLearnsTheWorkloadFromTheClient(String transport) throws Exception {
        String p = String.valueOf(PerfErrorsTest.freePort());
        PerfRun.Background server = new PerfRun.Background("send-bw", "-p", p, "--transport", transport, "-s", "8",
                "-q", "1").awaitListening();
        PerfRun client = PerfRun.of("send-bw", "127.0.0.1", "-p", p, "--transport", transport, "-s", "2K", "-n", "300",
                "-q", "2");
        PerfRun s = server.join();
        assertEquals(0, client.exit(), client.err() + client.out());
        assertEquals(0, s.exit(), s.err() + s.out());
        assertTrue(s.out().contains(" Mode            : server (the workload options are the client's)"), s.out());
        assertTrue(s.err().startsWith("jwarp: note: a server takes the workload options from its client; ignoring"
                + " -s -q\n"), s.err());
        assertTrue(client.out().contains(" Mode            : client"), client.out());
        List<double[]> c = client.rows();
        List<double[]> sv = s.rows();
        assertEquals(1, c.size(), client.out());
        assertEquals(1, sv.size(), s.out());
        assertEquals(2048, (int) sv.getFirst()[0]);
        assertEquals(600, (int) sv.getFirst()[1]);
        for (int k = 0; k < 5; k++) {
            assertEquals(c.getFirst()[k], sv.getFirst()[k], 1e-9, "column " + k);
        }
        assertTrue(client.verified().startsWith("yes"), client.out());
        assertTrue(s.verified().startsWith("yes"), s.out());
        assertTrue(s.out().contains(" Threads         : server application thread test-server: not pinned"), s.out());
    }
}
