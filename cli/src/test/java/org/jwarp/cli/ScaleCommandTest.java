package org.jwarp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Map;
import org.jwarp.bench.scale.ScaleDocument;
import org.junit.jupiter.api.Test;

/**
 * {@code jwarp scale} at 2,000 QPs: a server process, every connection through MPA, every byte of
 * every QP's WRITE and SEND checked by the server, idle engines that do not poll, and nothing left
 * after close.
 */
class ScaleCommandTest {

    @Test
    @SuppressWarnings("unchecked")
    void twoThousandQpsConnectCarryAByteCheckedWriteEachAndLeaveNothing() {
        JwarpCommandTest.Run r = JwarpCommandTest.run("scale", "--qps", "2000", "--idle", "2", "--rounds", "1000",
                "--json");
        assertEquals(0, r.exit(), r.out() + r.err());
        Map<String, Object> doc = (Map<String, Object>) StrictJson.parse(r.out());
        assertEquals(ScaleDocument.SCHEMA, doc.get("schema"));
        assertEquals(2000, ((Number) doc.get("qps_established")).intValue());
        assertEquals(2000L * (64 + 8), ((Number) doc.get("bytes_verified")).longValue());
        Map<String, Object> leaked = (Map<String, Object>) doc.get("leaked");
        assertTrue(((Number) leaked.get("fds")).intValue() <= 0, leaked.toString());
        assertTrue(((Number) leaked.get("threads")).intValue() <= 0, leaked.toString());
        assertTrue(((Number) leaked.get("direct_bytes")).longValue() <= 0, leaked.toString());
        // issue 32's target is 16 KiB; it measures 16.2-16.4 KB, so this bound catches growth, not the target
        long perQp = ((Number) doc.get("bytes_per_qp")).longValue();
        assertTrue(perQp > 0 && perQp <= 17 * 1024, perQp + " B per QP");
        // an idle engine sleeps: a thread woken every millisecond would show about 2 % of a CPU here
        double idle = ((Number) doc.get("idle_engine_cpu_percent")).doubleValue();
        assertTrue(idle >= 0 && idle < 1.0, idle + " % of a CPU for idle engines");
        assertTrue(((Number) doc.get("pingpong_alone_us")).doubleValue() > 0);
        assertTrue(((Number) doc.get("pingpong_beside_us")).doubleValue() > 0);
        assertEquals(Boolean.TRUE, doc.get("ok"));
    }

    @Test
    @SuppressWarnings("unchecked")
    void directDescriptorsCarryTheSameRun() {
        JwarpCommandTest.Run r = JwarpCommandTest.run("scale", "--qps", "600", "--io", "uring-direct", "--idle", "1",
                "--rounds", "500", "--json");
        assertEquals(0, r.exit(), r.out() + r.err());
        Map<String, Object> doc = (Map<String, Object>) StrictJson.parse(r.out());
        assertEquals("uring-direct", doc.get("socket_io"));
        assertEquals(600, ((Number) doc.get("qps_established")).intValue());
        assertEquals(600L * (64 + 8), ((Number) doc.get("bytes_verified")).longValue());
        Map<String, Object> leaked = (Map<String, Object>) doc.get("leaked");
        assertTrue(((Number) leaked.get("fds")).intValue() <= 0, leaked.toString());
        assertTrue(((Number) leaked.get("threads")).intValue() <= 0, leaked.toString());
        assertTrue(((Number) leaked.get("direct_bytes")).longValue() <= 0, leaked.toString());
        assertEquals(Boolean.TRUE, doc.get("ok"));
    }

    @Test
    void aFailureQuotesTheServersFirstLinesAndCountsTheRest() {
        assertEquals("a; b", ScaleCommand.firstLines(List.of("a", "b")));
        assertEquals("a; b; c", ScaleCommand.firstLines(List.of("a", "b", "c")));
        assertEquals("a; b; c; and 2 more lines", ScaleCommand.firstLines(List.of("a", "b", "c", "d", "e")));
        assertEquals("", ScaleCommand.firstLines(List.of()));
    }

    @Test
    void aBadCountIsOneLine() {
        JwarpCommandTest.Run r = JwarpCommandTest.run("scale", "--qps", "1");
        assertEquals(2, r.exit());
        assertTrue(r.err().startsWith("jwarp: --qps must be 2 to 200000, not 1"), r.err());
        assertEquals(1, r.err().strip().lines().count(), r.err());
    }
}
