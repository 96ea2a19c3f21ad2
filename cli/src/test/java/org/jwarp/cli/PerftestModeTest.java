package org.jwarp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * {@code --perftest}, both sides jwarp in one process speaking perftest's protocol: every test
 * completes its exchanges and its data phase in both roles. (That perftest itself accepts it is
 * the interop suite's matter: the siw VM runs the real ib_* tools against it.)
 */
class PerftestModeTest {

    @ParameterizedTest
    @ValueSource(strings = {"write-bw", "read-bw", "send-bw", "write-lat", "read-lat", "send-lat"})
    void eachTestRunsToItsEnd(String test) {
        PerfRun r = PerfRun.of(test, "--perftest", "--loopback", "-n", "300", "-s", "1000");
        assertEquals(0, r.exit(), r.err() + r.out());
        assertTrue(r.out().contains("(jwarp, perftest's protocol)"), r.out());
        assertTrue(r.out().contains("connected to perftest 6.06 at 127.0.0.1:"), r.out());
        List<double[]> rows = r.rows();
        assertEquals(1, rows.size(), r.out());
        double[] row = rows.getFirst();
        assertEquals(1000, row[0]);
        boolean halves = test.equals("write-lat") || test.equals("send-lat");
        assertEquals(halves ? 299 : 300, row[1], "samples: perftest halves the time between consecutive posts");
        for (int k = 2; k < row.length; k++) {
            assertTrue(row[k] > 0 && Double.isFinite(row[k]), "column " + k + " of " + r.out());
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"-a", "-e", "--json"})
    void whatPerftestModeLeavesOutIsOneLine(String option) {
        PerfRun r = PerfRun.of("write-bw", "--perftest", "--loopback", option);
        assertEquals(2, r.exit());
        assertTrue(r.err().lines().findFirst().orElse("").contains("--perftest runs one size for -n iterations the way "
                + "perftest does; drop " + option), r.err());
    }

    @ParameterizedTest
    @ValueSource(strings = {"atomic-bw", "write-imm-lat"})
    void testsPerftestDoesNotRunOverIwarpAreRefused(String test) {
        PerfRun r = PerfRun.of(test, "--perftest", "--loopback");
        assertEquals(2, r.exit());
        assertTrue(r.err().contains("--perftest speaks send-, write- and read-lat/bw"), r.err());
    }
}
