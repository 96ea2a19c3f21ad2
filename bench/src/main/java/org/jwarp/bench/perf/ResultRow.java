package org.jwarp.bench.perf;

/**
 * One output row: one size, both sides' figures combined.
 *
 * @param size            message size in bytes
 * @param iterations      messages (bandwidth, all QPs) or rounds (latency) measured
 * @param bwPeak          BW peak, bytes/s (bandwidth tests)
 * @param bwAverage       BW average, bytes/s (bandwidth tests)
 * @param msgRate         messages per second (bandwidth tests)
 * @param latency         latency columns (latency tests), else {@code null}
 * @param client          the client's report
 * @param server          the server's report
 * @param txIsClient      whether the client is the data source (false for READ: the server's engine sends the data)
 */
public record ResultRow(TestKind test, int size, long iterations, double bwPeak, double bwAverage, double msgRate,
                        Latency latency, SideReport client, SideReport server, boolean txIsClient) {

    public static ResultRow of(Settings s, SideReport client, SideReport server) {
        double avg = 0;
        double rate = 0;
        if (!s.test().isLatency() && client.elapsedNanos() > 0) {
            avg = client.bytes() * 1e9 / client.elapsedNanos();
            rate = client.messages() * 1e9 / client.elapsedNanos();
        }
        long iterations = s.test().isLatency() && client.latency() != null ? client.latency().count() : client.messages();
        return new ResultRow(s.test(), client.size(), iterations, client.peakBytesPerSecond(), avg, rate,
                client.latency(), client, server, !s.test().verb().isRequestResponse());
    }

    /** CPU of a side's application thread, % of one CPU. */
    public static double appPercent(SideReport r) {
        return r.cpuWallNanos() <= 0 ? 0 : r.appCpuNanos() * 100.0 / r.cpuWallNanos();
    }

    /** CPU of a side's engine threads, % of one CPU. */
    public static double enginePercent(SideReport r) {
        return r.cpuWallNanos() <= 0 ? 0 : r.engineCpuNanos() * 100.0 / r.cpuWallNanos();
    }

    public SideReport tx() {
        return txIsClient ? client : server;
    }

    public SideReport rx() {
        return txIsClient ? server : client;
    }

    /** Average in Gb/s (10^9 bits). */
    public double gbps() {
        return bwAverage * 8 / 1e9;
    }

    /**
     * Seed 001's metric for a side: % of one CPU per Gb/s, application and engine threads together
     * ({@code hostOnly}: the application thread alone, the host's share when the engine is the
     * offload engine). NaN for latency tests.
     */
    public double cpuPerGbps(SideReport side, boolean hostOnly) {
        if (latency != null || gbps() <= 0) {
            return Double.NaN;
        }
        double pct = appPercent(side) + (hostOnly ? 0 : enginePercent(side));
        return pct / gbps();
    }

    /** True if no side found bad data and at least one side checked. */
    public boolean verified() {
        return client.verified() != SideReport.FAILED && server.verified() != SideReport.FAILED
                && (client.verified() == SideReport.VERIFIED || server.verified() == SideReport.VERIFIED);
    }

    /** The verification failure of either side, or {@code null}. */
    public String failure() {
        if (client.verified() == SideReport.FAILED) {
            return "client: " + client.detail();
        }
        if (server.verified() == SideReport.FAILED) {
            return "server: " + server.detail();
        }
        return null;
    }
}
