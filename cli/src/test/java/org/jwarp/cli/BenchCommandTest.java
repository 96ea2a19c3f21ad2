package org.jwarp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code jwarp bench}: issue 13's table from one command, as JSON — every case and variant present,
 * figures positive, ratios where there is a baseline (the ping-pong's also to the C busy-poll baseline
 * where a C compiler is present), data verified — in one process and as two
 * processes (a server process per run); and bad flags in one line.
 */
class BenchCommandTest {

    @Test
    void loopbackGivesEveryCaseAndVariant() {
        check(JwarpCommandTest.run("bench", "--loopback", "--pairs", "1", "--seconds", "1", "--rounds", "200",
                "--io", "syscalls,uring,nio", "--json"), List.of("syscalls", "uring", "nio"), true);
    }

    @Test
    void twoProcessesGiveTheSameTable() {
        // the setup lines (two processes whatever the mode, and a warm-up of up to 20 s) are the first test's
        check(JwarpCommandTest.run("bench", "--pairs", "1", "--seconds", "1", "--rounds", "200", "--io", "nio",
                "--only", "stream,rate,pingpong,read", "--json"), List.of("nio"), false);
    }

    /**
     * seed 001's arrangement: every run, one after another, gets its CPUs (the client run pins this
     * thread, and the next run's server process must not inherit that pin).
     */
    @Test
    @SuppressWarnings("unchecked")
    void toadRunsEveryVariantPinned() {
        org.junit.jupiter.api.Assumptions.assumeTrue(Runtime.getRuntime().availableProcessors() >= 2,
                "the TOAD arrangement needs two CPUs");
        JwarpCommandTest.Run r = JwarpCommandTest.run("bench", "--toad", "--pairs", "1", "--seconds", "1", "--rounds",
                "200", "--io", "syscalls", "--only", "stream,rate,pingpong,read", "--json");
        check(r, List.of("syscalls"), false);
        assertEquals("toad", ((Map<String, Object>) StrictJson.parse(r.out())).get("threads"));
    }

    @SuppressWarnings("unchecked")
    private static void check(JwarpCommandTest.Run r, List<String> layers, boolean setupLines) {
        assertEquals(0, r.exit(), r.err());
        Map<String, Object> doc = (Map<String, Object>) StrictJson.parse(r.out());
        assertEquals(BenchCommand.JSON_SCHEMA, doc.get("schema"));
        assertEquals(Boolean.TRUE, doc.get("verified"));
        List<Map<String, Object>> rows = (List<Map<String, Object>>) doc.get("rows");
        boolean withC = org.jwarp.bench.run.CPingPong.why() == null;
        int expected = (withC ? 1 : 0) + (setupLines ? 4 : 0); // setup: jwarp and sockets, serial and in flight
        for (BenchCommand.Case c : BenchCommand.Case.values()) {
            expected += layers.size() + (c.baseline != null ? 1 : 0);
        }
        assertEquals(expected, rows.size(), rows.toString());
        for (Map<String, Object> row : rows) {
            Map<String, Object> figure = (Map<String, Object>) row.get("figure");
            double median = ((Number) figure.get("median")).doubleValue();
            assertTrue(median >= 0 && Double.isFinite(median), row.toString());
            assertEquals(1, ((List<?>) figure.get("runs")).size(), row.toString());
            String variant = (String) row.get("variant");
            if (((String) row.get("case")).startsWith("setup_")) {
                assertEquals("jwarp".equals(variant), row.containsKey("ratio"), row.toString());
                assertTrue(median > 0, "a connection rate is never 0: " + row);
                continue;
            }
            boolean jwarp = layers.contains(variant);
            boolean hasBaseline = !"read_passive".equals(row.get("case"));
            assertEquals(jwarp && hasBaseline, row.containsKey("ratio"), row.toString());
            boolean pingPong = "pingpong".equals(row.get("case"));
            assertEquals(withC && pingPong && !BenchCommand.C_BASELINE.equals(variant), row.containsKey("ratio_to_c"),
                    row.toString());
            if (!"read_passive".equals(row.get("case"))) {
                assertTrue(median > 0, "a throughput or a latency is never 0: " + row);
            }
        }
        assertEquals("stream", rows.getFirst().get("case"));
        assertEquals(layers.getFirst(), rows.getFirst().get("variant"));
    }

    @Test
    void aBadLayerIsOneLine() {
        JwarpCommandTest.Run r = JwarpCommandTest.run("bench", "--io", "epoll");
        assertEquals(2, r.exit());
        assertTrue(r.err().lines().anyMatch(l -> l.contains("--io takes syscalls, uring, uring-sqpoll or nio, not 'epoll'")), r.err());
    }
}
