package org.jwarp.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
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
 * <p>The JSON document is a {@link PerfDocument} (schema {@code jwarp-perf/1}, docs/json.md).
 */
public final class Results {

    public static final String SCHEMA = PerfDocument.SCHEMA;

    /** The CSV columns, in order. */
    public static final List<String> CSV_COLUMNS = List.of("test", "transport", "bytes", "iterations", "bw_peak_mb_s",
            "bw_avg_mb_s", "bw_avg_gb_s", "msg_rate_mpps", "t_min_us", "t_max_us", "t_typical_us", "t_avg_us",
            "t_stdev_us", "t_p99_us", "t_p99_9_us", "client_app_pct", "client_engine_pct", "server_app_pct",
            "server_engine_pct", "tx_pct_per_gbps", "rx_pct_per_gbps", "verified");

    private static final double MB = 1 << 20;

    private Results() {
    }

    public static PerfDocument document(Settings s, String mode, List<String> setup, List<String> threads,
                                        List<ResultRow> rows) {
        List<PerfDocument.Row> rs = new ArrayList<>();
        boolean verified = !rows.isEmpty();
        for (ResultRow r : rows) {
            rs.add(row(r));
            verified &= r.verified();
        }
        return new PerfDocument(SCHEMA, s.test().command(), s.transport().option(), mode, settings(s),
                List.copyOf(setup), List.copyOf(threads), rs, verified);
    }

    static PerfDocument.PerfSettings settings(Settings s) {
        return new PerfDocument.PerfSettings(s.allSizes() ? "all" : String.valueOf(s.size()), s.iterations(),
                s.iterationsGiven(), s.timed() ? s.durationMillis() / 1000.0 : Double.NaN, s.txDepth(), s.rxDepth(),
                s.inline(), s.events(), s.postList(), s.cqMod(), s.qps(), s.outstanding());
    }

    static PerfDocument.Row row(ResultRow r) {
        boolean bw = r.latency() == null;
        Latency l = r.latency();
        PerfDocument.LatencyUs latency = l == null ? null
                : new PerfDocument.LatencyUs(l.min(), l.max(), l.typical(), l.avg(), l.stdev(), l.p99(), l.p999());
        PerfDocument.Cpu cpu = new PerfDocument.Cpu(ResultRow.appPercent(r.client()),
                ResultRow.enginePercent(r.client()), ResultRow.appPercent(r.server()),
                ResultRow.enginePercent(r.server()), r.cpuPerGbps(r.tx(), false), r.cpuPerGbps(r.rx(), false),
                r.cpuPerGbps(r.tx(), true), r.cpuPerGbps(r.rx(), true));
        return new PerfDocument.Row(r.size(), r.iterations(), bw ? r.bwPeak() / MB : Double.NaN,
                bw ? r.bwAverage() / MB : Double.NaN, bw ? r.gbps() : Double.NaN, bw ? r.msgRate() / 1e6 : Double.NaN,
                latency, cpu, r.verified(), new PerfDocument.Checked(check(r.client()), check(r.server())));
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
