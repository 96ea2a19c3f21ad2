package org.jwarp.bench.report;

import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import org.jwarp.bench.json.JsonCodec;

/**
 * A perf test's {@code --json} document, schema {@link #SCHEMA} (docs/json.md): what {@link Results}
 * writes and what the experiments read back from the perf runs they start. Figures that do not apply
 * to a test (bandwidth of a latency test, an unknown CPU share) are NaN here and {@code null} in the
 * JSON.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record PerfDocument(String schema, String test, String transport, String mode, PerfSettings settings,
                           List<String> setup, List<String> threads, List<Row> results, boolean verified) {

    public static final String SCHEMA = "jwarp-perf/1";

    /** The options of the run, perftest's names. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record PerfSettings(String sizes, long iterations, boolean iterationsGiven, double durationS, int txDepth,
                               int rxDepth, int inline, boolean events, int postList, int cqMod, int qps,
                               int outstanding) {
    }

    /** One size: bandwidth (MB/s of 2^20 bytes, Gb/s of 10^9 bits) or latency, CPU, and what was verified. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Row(long bytes, long iterations, double bwPeakMbS, double bwAvgMbS, double bwAvgGbS,
                      double msgRateMpps, LatencyUs latencyUs, Cpu cpu, boolean verified, Checked checked) {
    }

    /** One-way latency in µs (the round trip for READ and atomics). */
    public record LatencyUs(double min, double max, double typical, double avg, double stdev, double p99,
                            double p99_9) {
    }

    /** CPU in % of one CPU, and per Gb/s of the transfer. */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    public record Cpu(double clientAppPct, double clientEnginePct, double serverAppPct, double serverEnginePct,
                      double txPctPerGbps, double rxPctPerGbps, double txHostPctPerGbps, double rxHostPctPerGbps) {
    }

    /** What each side checked of the data. */
    public record Checked(String client, String server) {
    }

    /** The first (or only) size's figures. */
    public Row first() {
        if (results == null || results.isEmpty()) {
            throw new IllegalArgumentException("the " + test + " document has no results");
        }
        return results.getFirst();
    }

    /**
     * The document a perf run printed with {@code --json}, among whatever else its process printed
     * before it (the document starts on a line of its own).
     *
     * @param source what printed it, for the error
     * @throws IllegalArgumentException one line, if there is no such document
     */
    public static PerfDocument parse(String output, String source) {
        int at = output.startsWith("{") ? 0 : output.indexOf("\n{");
        String text = at < 0 ? output : output.substring(at);
        return JsonCodec.convert(JsonCodec.read(text, source, List.of(SCHEMA)), PerfDocument.class, source);
    }
}
