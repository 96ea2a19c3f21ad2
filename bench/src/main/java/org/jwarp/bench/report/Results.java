package org.jwarp.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jwarp.bench.perf.Latency;
import org.jwarp.bench.perf.ResultRow;
import org.jwarp.bench.perf.Settings;
import org.jwarp.bench.perf.SideReport;

/**
 * The machine-readable forms of a run: one JSON document ({@code --json}) and a CSV file with one
 * row per size ({@code --csv}). Both carry the same figures under the same names; bandwidth in MB/s
 * is perftest's (2^20 bytes per second), in Gb/s 10^9 bits per second; latency in µs; CPU in % of
 * one CPU; fields that do not apply to a test are {@code null} (JSON) or empty (CSV).
 *
 * <p>JSON schema (version 1): {@code {"schema": "jwarp-perf/1", "test", "transport", "mode",
 * "settings": {...}, "setup": [lines], "threads": [lines], "results": [row...], "verified"}}, each
 * row {@code {"bytes", "iterations", "bw_peak_mb_s", "bw_avg_mb_s", "bw_avg_gb_s", "msg_rate_mpps",
 * "latency_us": {"min", "max", "typical", "avg", "stdev", "p99", "p99_9"} | null, "cpu":
 * {"client_app_pct", "client_engine_pct", "server_app_pct", "server_engine_pct", "tx_pct_per_gbps",
 * "rx_pct_per_gbps", "tx_host_pct_per_gbps", "rx_host_pct_per_gbps"}, "verified", "checked":
 * {"client", "server"}}}.
 */
public final class Results {

    public static final String SCHEMA = "jwarp-perf/1";

    /** The CSV columns, in order. */
    public static final List<String> CSV_COLUMNS = List.of("test", "transport", "bytes", "iterations", "bw_peak_mb_s",
            "bw_avg_mb_s", "bw_avg_gb_s", "msg_rate_mpps", "t_min_us", "t_max_us", "t_typical_us", "t_avg_us",
            "t_stdev_us", "t_p99_us", "t_p99_9_us", "client_app_pct", "client_engine_pct", "server_app_pct",
            "server_engine_pct", "tx_pct_per_gbps", "rx_pct_per_gbps", "verified");

    private static final double MB = 1 << 20;

    private Results() {
    }

    public static Map<String, Object> document(Settings s, String mode, List<String> setup, List<String> threads,
                                               List<ResultRow> rows) {
        Map<String, Object> d = new LinkedHashMap<>();
        d.put("schema", SCHEMA);
        d.put("test", s.test().command());
        d.put("transport", s.transport().option());
        d.put("mode", mode);
        d.put("settings", settings(s));
        d.put("setup", List.copyOf(setup));
        d.put("threads", List.copyOf(threads));
        List<Object> rs = new ArrayList<>();
        boolean verified = !rows.isEmpty();
        for (ResultRow r : rows) {
            rs.add(row(r));
            verified &= r.verified();
        }
        d.put("results", rs);
        d.put("verified", verified);
        return d;
    }

    static Map<String, Object> settings(Settings s) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("sizes", s.allSizes() ? "all" : String.valueOf(s.size()));
        m.put("iterations", s.iterations());
        m.put("iterations_given", s.iterationsGiven());
        m.put("duration_s", s.timed() ? s.durationMillis() / 1000.0 : null);
        m.put("tx_depth", s.txDepth());
        m.put("rx_depth", s.rxDepth());
        m.put("inline", s.inline());
        m.put("events", s.events());
        m.put("post_list", s.postList());
        m.put("cq_mod", s.cqMod());
        m.put("qps", s.qps());
        m.put("outstanding", s.outstanding());
        return m;
    }

    static Map<String, Object> row(ResultRow r) {
        Map<String, Object> m = new LinkedHashMap<>();
        boolean bw = r.latency() == null;
        m.put("bytes", r.size());
        m.put("iterations", r.iterations());
        m.put("bw_peak_mb_s", bw ? r.bwPeak() / MB : null);
        m.put("bw_avg_mb_s", bw ? r.bwAverage() / MB : null);
        m.put("bw_avg_gb_s", bw ? r.gbps() : null);
        m.put("msg_rate_mpps", bw ? r.msgRate() / 1e6 : null);
        Latency l = r.latency();
        if (l == null) {
            m.put("latency_us", null);
        } else {
            Map<String, Object> lm = new LinkedHashMap<>();
            lm.put("min", l.min());
            lm.put("max", l.max());
            lm.put("typical", l.typical());
            lm.put("avg", l.avg());
            lm.put("stdev", l.stdev());
            lm.put("p99", l.p99());
            lm.put("p99_9", l.p999());
            m.put("latency_us", lm);
        }
        Map<String, Object> cpu = new LinkedHashMap<>();
        cpu.put("client_app_pct", ResultRow.appPercent(r.client()));
        cpu.put("client_engine_pct", ResultRow.enginePercent(r.client()));
        cpu.put("server_app_pct", ResultRow.appPercent(r.server()));
        cpu.put("server_engine_pct", ResultRow.enginePercent(r.server()));
        cpu.put("tx_pct_per_gbps", r.cpuPerGbps(r.tx(), false));
        cpu.put("rx_pct_per_gbps", r.cpuPerGbps(r.rx(), false));
        cpu.put("tx_host_pct_per_gbps", r.cpuPerGbps(r.tx(), true));
        cpu.put("rx_host_pct_per_gbps", r.cpuPerGbps(r.rx(), true));
        m.put("cpu", cpu);
        m.put("verified", r.verified());
        Map<String, Object> checked = new LinkedHashMap<>();
        checked.put("client", check(r.client()));
        checked.put("server", check(r.server()));
        m.put("checked", checked);
        return m;
    }

    private static String check(SideReport s) {
        return switch (s.verified()) {
            case SideReport.VERIFIED -> s.detail();
            case SideReport.FAILED -> "FAILED: " + s.detail();
            default -> "nothing (" + s.detail() + ")";
        };
    }

    public static String csvHeader() {
        return String.join(",", CSV_COLUMNS);
    }

    public static String csvRow(Settings s, ResultRow r) {
        Latency l = r.latency();
        boolean bw = l == null;
        List<String> f = new ArrayList<>();
        f.add(s.test().command());
        f.add(s.transport().option());
        f.add(String.valueOf(r.size()));
        f.add(String.valueOf(r.iterations()));
        f.add(bw ? num(r.bwPeak() / MB) : "");
        f.add(bw ? num(r.bwAverage() / MB) : "");
        f.add(bw ? num(r.gbps()) : "");
        f.add(bw ? num(r.msgRate() / 1e6) : "");
        for (double v : l == null ? new double[0] : new double[] {l.min(), l.max(), l.typical(), l.avg(), l.stdev(),
                l.p99(), l.p999()}) {
            f.add(num(v));
        }
        if (l == null) {
            for (int i = 0; i < 7; i++) {
                f.add("");
            }
        }
        f.add(num(ResultRow.appPercent(r.client())));
        f.add(num(ResultRow.enginePercent(r.client())));
        f.add(num(ResultRow.appPercent(r.server())));
        f.add(num(ResultRow.enginePercent(r.server())));
        f.add(num(r.cpuPerGbps(r.tx(), false)));
        f.add(num(r.cpuPerGbps(r.rx(), false)));
        f.add(String.valueOf(r.verified()));
        return String.join(",", f);
    }

    private static String num(double v) {
        return Double.isNaN(v) || Double.isInfinite(v) ? "" : String.format(Locale.ROOT, "%.4f", v);
    }
}
