package org.jwarp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.jwarp.engine.provider.JwarpConfig;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every subcommand over every transport with {@code --loopback} and a few iterations: the table is
 * well-formed (perftest's columns, one row per size, sane numbers) and the data was verified.
 * Timings are printed, never judged.
 */
class PerfLoopbackTest {

    static final String[] TESTS = {"send-lat", "send-bw", "write-lat", "write-bw", "read-lat", "read-bw",
            "write-imm-lat", "write-imm-bw"};
    static final String[] TRANSPORTS = {"jwarp", "sockets-blocking", "sockets-nio", "sockets-busypoll"};

    static Stream<Arguments> everyTestOverEveryTransport() {
        List<Arguments> out = new ArrayList<>();
        for (String t : TESTS) {
            for (String tr : TRANSPORTS) {
                out.add(Arguments.of(t, tr));
            }
        }
        return out.stream();
    }

    @ParameterizedTest(name = "{0} --transport {1}")
    @MethodSource("everyTestOverEveryTransport")
    void aLoopbackRunIsWellFormedAndVerified(String test, String transport) {
        PerfRun r = PerfRun.of(test, "--loopback", "--transport", transport, "-s", "1000", "-n", "200", "--cpu_util");
        assertEquals(0, r.exit(), r.err() + r.out());
        assertWellFormed(r, test, List.of(1000), 200, true);
    }

    /** jwarp's own options and perftest's less common ones, each once. */
    static Stream<Arguments> variants() {
        return Stream.of(
                Arguments.of("send-lat", List.of("--threading", "invoker", "-e")),
                Arguments.of("write-imm-lat", List.of("-e", "--crc", "off", "-s", "3")),
                Arguments.of("send-bw", List.of("-q", "3", "-l", "4", "-Q", "8", "-t", "32", "-r", "64", "-e")),
                Arguments.of("write-bw", List.of("-q", "2", "-I", "128", "-s", "100", "--markers", "on")),
                Arguments.of("read-bw", List.of("-o", "4", "-q", "2", "--threading", "invoker", "--report_gbits")),
                Arguments.of("write-imm-bw", List.of("--threading", "dedicated", "--idle", "park", "--engine-threads", "2", "-r", "8")),
                Arguments.of("write-lat", List.of("-s", "1", "--idle", "park")),
                // both sides on two engine threads, their 8 data QPs steered by RSS
                Arguments.of("write-bw", List.of("--threading", "dedicated", "--engine-threads", "2", "-q", "8",
                        "-s", "4096")),
                // the same with periodic rebalancing every 50 ms, NUMA placement, moderated events
                Arguments.of("send-bw", List.of("--threading", "dedicated", "--engine-threads", "2", "-q", "4",
                        "--rebalance", "periodic", "--rebalance-period", "0.05", "--numa", "-e", "--moderation", "8,100",
                        "-s", "1024")),
                Arguments.of("read-bw", List.of("--transport", "sockets-nio", "-q", "2", "-o", "3")),
                Arguments.of("send-bw", List.of("--transport", "sockets-busypoll", "-q", "3")));
    }

    /** perftest's ib_atomic_lat and ib_atomic_bw: both atomic types over jwarp, and the sockets baseline. */
    static Stream<Arguments> atomics() {
        List<Arguments> out = new ArrayList<>();
        for (String t : List.of("atomic-lat", "atomic-bw")) {
            for (String type : List.of("FETCH_AND_ADD", "CMP_AND_SWAP")) {
                out.add(Arguments.of(t, List.of("-A", type)));
            }
            out.add(Arguments.of(t, List.of("--transport", "sockets-nio")));
        }
        out.add(Arguments.of("atomic-bw", List.of("-A", "CMP_AND_SWAP", "-q", "2", "-o", "8", "--threading", "dedicated")));
        return out.stream();
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("atomics")
    void atomicRunsAreWellFormedAndVerified(String test, List<String> extra) {
        List<String> args = new ArrayList<>(List.of(test, "--loopback", "-n", "300"));
        args.addAll(extra);
        PerfRun r = PerfRun.of(args.toArray(String[]::new));
        assertEquals(0, r.exit(), r.err() + r.out());
        int qps = extra.contains("-q") ? Integer.parseInt(extra.get(extra.indexOf("-q") + 1)) : 1;
        assertWellFormed(r, test, List.of(8), test.endsWith("-bw") ? 300L * qps : 300, false);
        if (!extra.contains("--transport")) {
            assertTrue(r.verified().contains("moved by exactly"), "the target's final value checks every operation: "
                    + r.out());
        }
    }

    @ParameterizedTest(name = "{0} -D")
    @ValueSource(strings = {"write-lat", "read-bw", "send-bw"})
    void aTimedRunIsWellFormedAndVerified(String test) {
        PerfRun r = PerfRun.of(test, "--loopback", "-s", "512", "-D", "0.2");
        assertEquals(0, r.exit(), r.err() + r.out());
        assertTrue(r.out().contains(" Iterations      : for 0.2 s per size (-D)"), r.out());
        assertEquals(1, r.rows().size(), r.out());
        assertTrue(r.rows().getFirst()[1] > 0, r.out());
        assertTrue(r.verified().startsWith("yes"), r.out());
    }

    @Test
    void spinningEngineThreadsBeyondTheCpusRunOnlyWithAWarning() {
        int cores = Runtime.getRuntime().availableProcessors();
        int engines = cores + 1;
        PerfRun r = PerfRun.of("write-bw", "--loopback", "-s", "4096", "-n", "50", "--idle", "spin",
                "--threading", "dedicated", "--engine-threads", String.valueOf(engines));
        assertEquals(0, r.exit(), r.err() + r.out());
        assertEquals("jwarp: warning: --idle spin: " + 2 * engines + " busy-spinning engine threads beside 2 polling"
                + " application threads on " + cores + " CPU" + (cores == 1 ? "" : "s") + ": threads sharing a CPU"
                + " hand over only at scheduler ticks (~4 ms)", r.err().strip());
        assertTrue(r.verified().startsWith("yes"), r.out());
        // by default nothing spins beyond the CPUs: no warning, and pollers yield when threads outnumber CPUs
        PerfRun d = PerfRun.of("write-bw", "--loopback", "-s", "4096", "-n", "50");
        assertEquals("", d.err());
        // the default threading never puts more busy threads than CPUs: hybrid below 4 CPUs (one poller
        // per side runs its engine), a dedicated engine thread per side from 4
        assertFalse(d.out().contains("yielding the CPU when idle"), d.out());
        assertTrue(d.out().contains("default for " + JwarpConfig.defaultThreadingReason(cores)), d.out());
    }

    /**
     * seed 001's arrangement by name: one dedicated engine thread per device, and every thread pinned
     * so that each side's engine has a CPU its application does not use.
     */
    @Test
    void toadPutsEachEngineOnACpuItsApplicationDoesNotUse() {
        org.junit.jupiter.api.Assumptions.assumeTrue(Runtime.getRuntime().availableProcessors() >= 2,
                "the TOAD arrangement needs two CPUs");
        PerfRun r = PerfRun.of("write-lat", "--loopback", "-s", "64", "-n", "300", "--threading", "toad");
        assertEquals(0, r.exit(), r.err() + r.out());
        assertWellFormed(r, "write-lat", List.of(64), 300, false);
        java.util.regex.Matcher m = java.util.regex.Pattern.compile(
                "toad \\(seed 001\\): application threads on CPU (\\d+),(\\d+), engine threads on CPU \\[(\\d+)],\\[(\\d+)]")
                .matcher(r.out());
        assertTrue(m.find(), r.out());
        assertTrue(!m.group(1).equals(m.group(3)) && !m.group(2).equals(m.group(4)),
                "each side's engine on a CPU of its own: " + m.group());
        assertTrue(r.out().contains("client application thread jwarp-perf-client: CPU " + m.group(1) + " (pinned)"), r.out());
        assertTrue(r.out().contains("client engine thread jwarp-engine-0: CPU " + m.group(3) + " (pinned)"), r.out());
        assertTrue(r.out().contains("server engine thread jwarp-engine-0: CPU " + m.group(4) + " (pinned)"), r.out());
        // below 4 CPUs each CPU carries an application and the other side's engine: the engine backs off
        assertEquals(Runtime.getRuntime().availableProcessors() < 4, r.out().contains("idle backoff"), r.out());
    }

    @ParameterizedTest(name = "{0} {1}")
    @MethodSource("variants")
    void variantsAreWellFormedAndVerified(String test, List<String> extra) {
        List<String> args = new ArrayList<>(List.of(test, "--loopback", "-n", "100"));
        if (!extra.contains("-s")) {
            args.addAll(List.of("-s", "4096"));
        }
        args.addAll(extra);
        PerfRun r = PerfRun.of(args.toArray(String[]::new));
        assertEquals(0, r.exit(), r.err() + r.out());
        int size = extra.contains("-s") ? Integer.parseInt(extra.get(extra.indexOf("-s") + 1)) : 4096;
        int qps = extra.contains("-q") ? Integer.parseInt(extra.get(extra.indexOf("-q") + 1)) : 1;
        assertWellFormed(r, test, List.of(size), test.endsWith("-bw") ? 100L * qps : 100, false);
    }

    @ParameterizedTest(name = "-a {0}")
    @MethodSource("sweeps")
    void aSweepOfAllSizesIsVerifiedAtEverySize(String test, String transport) {
        PerfRun r = PerfRun.of(test, "--loopback", "-a", "-n", "4", "--transport", transport);
        assertEquals(0, r.exit(), r.err() + r.out());
        List<Integer> sizes = new ArrayList<>();
        for (int s = 2; s <= 1 << 23; s <<= 1) {
            sizes.add(s);
        }
        assertWellFormed(r, test, sizes, 4, false);
    }

    static Stream<Arguments> sweeps() {
        return Stream.of(Arguments.of("write-bw", "jwarp"), Arguments.of("send-lat", "sockets-nio"));
    }

    static void assertWellFormed(PerfRun r, String test, List<Integer> sizes, long iterations, boolean cpu) {
        String out = r.out();
        boolean lat = test.endsWith("-lat");
        assertTrue(out.contains(lat ? " #bytes #iterations    t_min[usec]    t_max[usec]  t_typical[usec]    t_avg[usec]"
                + "    t_stdev[usec]   99% percentile[usec]   99.9% percentile[usec]"
                : " #bytes     #iterations    BW peak["), out);
        List<double[]> rows = r.rows();
        assertEquals(sizes.size(), rows.size(), out);
        for (int k = 0; k < rows.size(); k++) {
            double[] row = rows.get(k);
            int columns = (lat ? 9 : 5) + (cpu ? (lat ? 4 : 6) : 0);
            assertEquals(columns, row.length, out);
            assertEquals(sizes.get(k), (int) row[0], out);
            assertEquals(iterations, (long) row[1], out);
            if (lat) {
                // min <= typical <= max, min <= avg <= max, p99 <= p99.9 <= max (HdrHistogram: 0.1% precision)
                double slack = row[2] * 0.002 + 0.01;
                assertTrue(row[2] > 0 && row[2] <= row[4] + slack && row[4] <= row[3] + slack, out);
                assertTrue(row[5] + slack >= row[2] && row[5] <= row[3] + slack && row[6] >= 0, out);
                assertTrue(row[7] <= row[8] + slack && row[8] <= row[3] + slack, out);
            } else {
                // BW columns have 2 decimals (a few 2-byte messages can print 0.00); MsgRate has 6
                assertTrue(row[2] >= 0 && row[3] >= 0 && row[2] + 0.01 >= row[3] && row[4] > 0, out);
            }
            if (cpu) {
                for (int c = lat ? 9 : 5; c < row.length; c++) {
                    assertTrue(row[c] >= 0, out);
                }
            }
        }
        assertTrue(r.verified() != null && r.verified().startsWith("yes, every size (client: "), out);
        assertTrue(out.contains(" Threads         : client application thread jwarp-perf-client: "), out);
        assertTrue(out.contains("server application thread jwarp-perf-server: "), out);
    }
}
