package org.jwarp.disni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * On demand ({@code -Djwarp.disni.bench=ROUNDS}): DaRPC 1.9's own client over jwarp-disni against
 * {@link SocketsRpc}, the same request/response loop over Java sockets, as server and client
 * processes over 127.0.0.1 with default options, interleaved round by round. One call at a time
 * (DaRPC's {@code future-poll}: latency) and {@value #BATCH} calls in flight
 * ({@code batch-stream-poll -b 16}: throughput). Prints medians, spread and ratios.
 */
@EnabledIfSystemProperty(named = "jwarp.disni.bench", matches = "\\d+")
class DaRpcVsSocketsBench {

    static final int BATCH = 16;
    private static final Pattern TIME = Pattern.compile("executionTime (\\d+\\.\\d+)");
    private static final Pattern OPS = Pattern.compile("ops (\\d+\\.\\d+)");

    /** One client run: seconds and calls. */
    record Run(double seconds, double ops) {
        double microsPerCall() {
            return seconds * 1e6 / ops;
        }

        double callsPerSecond() {
            return ops / seconds;
        }
    }

    @Test
    void daRpcAgainstSockets() throws Exception {
        int rounds = Integer.getInteger("jwarp.disni.bench");
        int loops = Integer.getInteger("jwarp.disni.bench.calls", 20_000);
        int port = ChildJvm.freePort();
        try (ChildJvm darpc = ChildJvm.start("bench-DaRPCServer", "com.ibm.darpc.examples.server.DaRPCServer", "-a",
                "127.0.0.1");
                ChildJvm sockets = ChildJvm.start("bench-SocketsRpc", SocketsRpc.class.getName(), "server", "" + port)) {
            assertTrue(darpc.awaitOutput("running...server 127.0.0.1", 60), darpc.output());
            assertTrue(sockets.awaitOutput("listening on", 60), sockets.output());
            List<Run> dl = new ArrayList<>();
            List<Run> sl = new ArrayList<>();
            List<Run> dt = new ArrayList<>();
            List<Run> st = new ArrayList<>();
            for (int r = -1; r < rounds; r++) {
                // round -1 warms both up and is not counted
                Run a = darpcClient("future-poll", 1, loops);
                Run b = socketsClient(port, 1, loops);
                Run c = darpcClient("batch-stream-poll", BATCH, loops);
                Run d = socketsClient(port, BATCH, loops);
                if (r >= 0) {
                    dl.add(a);
                    sl.add(b);
                    dt.add(c);
                    st.add(d);
                }
            }
            double[] lat = table("one call at a time, µs per call", dl, sl, Run::microsPerCall);
            double[] thr = table(BATCH + " calls in flight, calls per second", dt, st, Run::callsPerSecond);
            System.out.printf(Locale.ROOT, "%nDaRPC over jwarp / sockets: latency %.2f, throughput %.2f (%d rounds of %d calls)%n",
                    lat[0] / lat[1], thr[0] / thr[1], rounds, loops);
        }
    }

    private static double[] table(String title, List<Run> jwarp, List<Run> sockets,
            java.util.function.ToDoubleFunction<Run> metric) {
        double[] j = jwarp.stream().mapToDouble(metric).sorted().toArray();
        double[] s = sockets.stream().mapToDouble(metric).sorted().toArray();
        System.out.printf(Locale.ROOT, "%n%s%n  DaRPC over jwarp: median %.1f, min %.1f, max %.1f  %s%n"
                + "  Java sockets:     median %.1f, min %.1f, max %.1f  %s%n", title, median(j), j[0], j[j.length - 1],
                Arrays.toString(j), median(s), s[0], s[s.length - 1], Arrays.toString(s));
        return new double[] {median(j), median(s)};
    }

    private static double median(double[] sorted) {
        int n = sorted.length;
        return n % 2 == 1 ? sorted[n / 2] : (sorted[n / 2 - 1] + sorted[n / 2]) / 2;
    }

    private static Run darpcClient(String mode, int batch, int loops) throws Exception {
        try (ChildJvm c = ChildJvm.start("bench-DaRPCClient", "com.ibm.darpc.examples.client.DaRPCClient", "-a",
                "127.0.0.1", "-m", mode, "-k", "" + loops, "-b", "" + batch)) {
            assertEquals(0, c.awaitExit(300), c.output());
            return parse(c.output());
        }
    }

    private static Run socketsClient(int port, int batch, int loops) throws Exception {
        try (ChildJvm c = ChildJvm.start("bench-SocketsRpc-client", SocketsRpc.class.getName(), "client", "127.0.0.1",
                "" + port, "" + loops, "" + batch)) {
            assertEquals(0, c.awaitExit(300), c.output());
            return parse(c.output());
        }
    }

    private static Run parse(String out) {
        Matcher t = TIME.matcher(out);
        Matcher o = OPS.matcher(out);
        assertTrue(t.find() && o.find(), out);
        return new Run(Double.parseDouble(t.group(1)), Double.parseDouble(o.group(1)));
    }
}
