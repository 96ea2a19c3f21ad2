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
 * On demand ({@code -Djwarp.disni.bench=ROUNDS}): DiSNI programs over jwarp-disni against the same
 * exchange over Java sockets, as server and client processes over 127.0.0.1 with default options,
 * interleaved round by round; prints medians, spread and ratios.
 * <ul>
 *   <li>DaRPC 1.9's own client against {@link SocketsRpc}, DaRPC's loop over sockets: one call at a
 *       time ({@code future-poll}: latency) and {@value #BATCH} calls in flight
 *       ({@code batch-stream-poll -b 16}: throughput);</li>
 *   <li>DiSNI's own {@code RDMAvsTcpBenchmark} (its ping-pong by SEND/RECV, then the same over a
 *       {@code SocketChannel}, both written by DiSNI's authors), {@value #SIZE} bytes;</li>
 *   <li>DiSNI's {@code benchmarks.ReadClient} (one RDMA READ of {@value #SIZE} bytes at a time)
 *       against {@link SocketsRpc} asked for the same bytes.</li>
 * </ul>
 */
@EnabledIfSystemProperty(named = "jwarp.disni.bench", matches = "\\d+")
class DisniVsSocketsBench {

    static final int BATCH = 16;
    static final int SIZE = 64;
    private static final Pattern DISNI_LATENCY = Pattern.compile("Bidirectional average latency: (\\d+\\.\\d+(?:E-?\\d+)?) ms");
    private static final Pattern READ_LATENCY = Pattern.compile("ReadClient, latency (\\d+)");
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
            List<Double> rdmaPing = new ArrayList<>();
            List<Double> tcpPing = new ArrayList<>();
            List<Double> read = new ArrayList<>();
            List<Double> socketsRead = new ArrayList<>();
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
                double[] ping = rdmaVsTcp(loops);
                double rd = disniRead(loops);
                double srd = socketsClient(port, 1, loops, SIZE).microsPerCall();
                if (r >= 0) {
                    rdmaPing.add(ping[0]);
                    tcpPing.add(ping[1]);
                    read.add(rd);
                    socketsRead.add(srd);
                    dl.add(a);
                    sl.add(b);
                    dt.add(c);
                    st.add(d);
                }
            }
            double[] lat = table("one call at a time, µs per call", dl, sl, Run::microsPerCall);
            double[] thr = table(BATCH + " calls in flight, calls per second", dt, st, Run::callsPerSecond);
            double[] pp = table("DiSNI's RDMAvsTcpBenchmark, " + SIZE + " B ping-pong, µs per round trip",
                    runs(rdmaPing), runs(tcpPing), Run::seconds);
            double[] rr = table("one " + SIZE + " B RDMA READ at a time (DiSNI's benchmarks.ReadClient) against a " + SIZE
                    + " B answer over sockets, µs", runs(read), runs(socketsRead), Run::seconds);
            System.out.printf(Locale.ROOT, "%njwarp-disni / sockets (%d rounds of %d): DaRPC latency %.2f, DaRPC throughput %.2f,"
                    + " DiSNI SEND/RECV ping-pong %.2f, DiSNI READ %.2f%n", rounds, loops, lat[0] / lat[1], thr[0] / thr[1],
                    pp[0] / pp[1], rr[0] / rr[1]);
        }
    }

    private static double[] table(String title, List<Run> jwarp, List<Run> sockets,
            java.util.function.ToDoubleFunction<Run> metric) {
        double[] j = jwarp.stream().mapToDouble(metric).sorted().toArray();
        double[] s = sockets.stream().mapToDouble(metric).sorted().toArray();
        System.out.printf(Locale.ROOT, "%n%s%n  over jwarp-disni: median %.1f, min %.1f, max %.1f  %s%n"
                + "  Java sockets:    median %.1f, min %.1f, max %.1f  %s%n", title, median(j), j[0], j[j.length - 1],
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

    /** Plain values as runs, so that {@link #table} prints them too. */
    private static List<Run> runs(List<Double> values) {
        return values.stream().map(v -> new Run(v, 1)).toList();
    }

    /** DiSNI's RDMAvsTcpBenchmark: µs per SEND/RECV round trip over jwarp, then over its SocketChannel. */
    private static double[] rdmaVsTcp(int loops) throws Exception {
        int port = ChildJvm.freePort();
        String[] args = {"-a", "127.0.0.1", "-p", "" + port, "-s", "" + SIZE, "-k", "" + loops};
        try (ChildJvm server = ChildJvm.start("bench-RDMAvsTcpServer", "com.ibm.disni.benchmarks.RDMAvsTcpBenchmarkServer",
                args)) {
            assertTrue(server.awaitOutput("TCP server listening", 60), server.output());
            try (ChildJvm client = ChildJvm.start("bench-RDMAvsTcpClient", "com.ibm.disni.benchmarks.RDMAvsTcpBenchmarkClient",
                    args)) {
                assertEquals(0, client.awaitExit(300), client.output());
                Matcher m = DISNI_LATENCY.matcher(client.output());
                assertTrue(m.find(), client.output());
                double rdma = Double.parseDouble(m.group(1)) * 1000;
                assertTrue(m.find(), client.output());
                return new double[] {rdma, Double.parseDouble(m.group(1)) * 1000};
            }
        }
    }

    /** DiSNI's benchmarks.ReadClient: µs per RDMA READ. */
    private static double disniRead(int loops) throws Exception {
        int port = ChildJvm.freePort();
        String[] args = {"-a", "127.0.0.1", "-p", "" + port, "-s", "" + SIZE, "-k", "" + loops};
        try (ChildJvm server = ChildJvm.start("bench-ReadServer", "com.ibm.disni.benchmarks.ReadServer", args)) {
            // it says its size before it binds: give it a moment after that
            assertTrue(server.awaitOutput("ReadServer, size", 60), server.output());
            Thread.sleep(1000);
            try (ChildJvm client = ChildJvm.start("bench-ReadClient", "com.ibm.disni.benchmarks.ReadClient", args)) {
                assertEquals(0, client.awaitExit(300), client.output());
                Matcher m = READ_LATENCY.matcher(client.output());
                assertTrue(m.find(), client.output());
                return Double.parseDouble(m.group(1));
            }
        }
    }

    private static Run socketsClient(int port, int batch, int loops) throws Exception {
        return socketsClient(port, batch, loops, SocketsRpc.RESPONSE);
    }

    private static Run socketsClient(int port, int batch, int loops, int response) throws Exception {
        try (ChildJvm c = ChildJvm.start("bench-SocketsRpc-client", SocketsRpc.class.getName(), "client", "127.0.0.1",
                "" + port, "" + loops, "" + batch, "" + response)) {
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
