package org.jwarp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jwarp.bench.report.Results;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The machine-readable outputs: the JSON document's schema and the CSV file's. */
class PerfOutputTest {

    @TempDir
    Path dir;

    @Test
    void jsonOfABandwidthRun() throws Exception {
        Path csv = dir.resolve("write-bw.csv");
        PerfRun r = PerfRun.of("write-bw", "--loopback", "-s", "4096", "-n", "300", "-q", "2", "--json", "--csv",
                csv.toString());
        assertEquals(0, r.exit(), r.err());
        Map<String, Object> d = document(r.out(), "write-bw", "jwarp");
        Map<?, ?> settings = (Map<?, ?>) d.get("settings");
        assertEquals("4096", settings.get("sizes"));
        assertEquals(300L, settings.get("iterations"));
        assertEquals(2L, settings.get("qps"));
        List<?> results = (List<?>) d.get("results");
        assertEquals(1, results.size());
        Map<?, ?> row = (Map<?, ?>) results.getFirst();
        assertEquals(List.of("bytes", "iterations", "bw_peak_mb_s", "bw_avg_mb_s", "bw_avg_gb_s", "msg_rate_mpps",
                "latency_us", "cpu", "verified", "checked"), List.copyOf(row.keySet()));
        assertEquals(4096L, row.get("bytes"));
        assertEquals(600L, row.get("iterations"));
        for (String k : List.of("bw_peak_mb_s", "bw_avg_mb_s", "bw_avg_gb_s", "msg_rate_mpps")) {
            assertTrue(((Number) row.get(k)).doubleValue() > 0, k);
        }
        assertNull(row.get("latency_us"));
        Map<?, ?> cpu = (Map<?, ?>) row.get("cpu");
        assertEquals(Set.of("client_app_pct", "client_engine_pct", "server_app_pct", "server_engine_pct",
                "tx_pct_per_gbps", "rx_pct_per_gbps", "tx_host_pct_per_gbps", "rx_host_pct_per_gbps"), cpu.keySet());
        for (Object v : cpu.values()) {
            assertTrue(((Number) v).doubleValue() >= 0);
        }
        assertEquals(Boolean.TRUE, row.get("verified"));
        Map<?, ?> checked = (Map<?, ?>) row.get("checked");
        assertEquals("the WRITE target's pattern on every QP", checked.get("server"));

        List<String> lines = Files.readAllLines(csv);
        assertEquals(2, lines.size(), lines.toString());
        assertEquals(Results.csvHeader(), lines.getFirst());
        String[] f = lines.get(1).split(",", -1);
        assertEquals(Results.CSV_COLUMNS.size(), f.length);
        assertEquals("write-bw", f[0]);
        assertEquals("jwarp", f[1]);
        assertEquals("4096", f[2]);
        assertEquals("600", f[3]);
        for (int k = 4; k <= 7; k++) {
            assertTrue(Double.parseDouble(f[k]) > 0, Results.CSV_COLUMNS.get(k));
        }
        for (int k = 8; k <= 14; k++) {
            assertEquals("", f[k], "no latency in a bandwidth test: " + Results.CSV_COLUMNS.get(k));
        }
        for (int k = 15; k <= 20; k++) {
            assertTrue(Double.parseDouble(f[k]) >= 0, Results.CSV_COLUMNS.get(k));
        }
        assertEquals("true", f[21]);
    }

    @Test
    void jsonAndCsvOfALatencySweep() throws Exception {
        Path csv = dir.resolve("lat.csv");
        PerfRun r = PerfRun.of("send-lat", "--loopback", "--transport", "sockets-blocking", "-n", "50", "-a", "--json",
                "--csv", csv.toString());
        assertEquals(0, r.exit(), r.err());
        Map<String, Object> d = document(r.out(), "send-lat", "sockets-blocking");
        List<?> results = (List<?>) d.get("results");
        assertEquals(23, results.size());
        long size = 2;
        for (Object o : results) {
            Map<?, ?> row = (Map<?, ?>) o;
            assertEquals(size, row.get("bytes"));
            size *= 2;
            assertNull(row.get("bw_avg_mb_s"));
            Map<?, ?> lat = (Map<?, ?>) row.get("latency_us");
            assertEquals(List.of("min", "max", "typical", "avg", "stdev", "p99", "p99_9"), List.copyOf(lat.keySet()));
            double min = ((Number) lat.get("min")).doubleValue();
            double max = ((Number) lat.get("max")).doubleValue();
            assertTrue(min > 0 && min <= max);
            Map<?, ?> cpu = (Map<?, ?>) row.get("cpu");
            assertNull(cpu.get("tx_pct_per_gbps"), "no per-Gb/s figure for a latency test");
        }
        List<String> lines = Files.readAllLines(csv);
        assertEquals(24, lines.size());
        for (String line : lines.subList(1, lines.size())) {
            String[] f = line.split(",", -1);
            assertEquals(Results.CSV_COLUMNS.size(), f.length);
            assertEquals("", f[4]);
            assertTrue(Double.parseDouble(f[10]) > 0, "t_typical_us");
            assertEquals("", f[19], "tx_pct_per_gbps");
        }
    }

    @Test
    void theTextTableWithoutJsonIsNotJson() {
        PerfRun r = PerfRun.of("read-lat", "--loopback", "-n", "20");
        assertEquals(0, r.exit(), r.err());
        assertTrue(r.out().startsWith("-----"), r.out());
        assertFalse(r.out().contains("\"schema\""));
    }

    @SuppressWarnings("unchecked")
    static Map<String, Object> document(String json, String test, String transport) {
        Object parsed = StrictJson.parse(json.strip());
        Map<String, Object> d = assertInstanceOf(Map.class, parsed);
        assertEquals(List.of("schema", "test", "transport", "mode", "settings", "setup", "threads", "results",
                "verified"), List.copyOf(d.keySet()));
        assertEquals(Results.SCHEMA, d.get("schema"));
        assertEquals(test, d.get("test"));
        assertEquals(transport, d.get("transport"));
        assertEquals("loopback", d.get("mode"));
        assertEquals(Boolean.TRUE, d.get("verified"));
        assertEquals(List.of("sizes", "iterations", "iterations_given", "duration_s", "tx_depth", "rx_depth", "inline",
                "events", "post_list", "cq_mod", "qps", "outstanding"), List.copyOf(((Map<?, ?>) d.get("settings")).keySet()));
        for (Object line : (List<?>) d.get("setup")) {
            assertInstanceOf(String.class, line);
        }
        assertTrue(((List<?>) d.get("threads")).size() >= 2);
        return d;
    }
}
