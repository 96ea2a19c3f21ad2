package org.jwarp.bench.loopback;

import java.util.Arrays;
import org.jwarp.verbs.DeviceConfig;

/**
 * {@link LoopbackBench}'s two comparisons for a machine whose load changes from one second to the
 * next: the jwarp run and its NIO baseline alternate in short slices, many times, so that both
 * see the same conditions, and each pair gives one ratio; the summary is the median ratio and its
 * spread. Bandwidth: 64 KiB RDMA WRITE stream vs NIO stream; latency: 8-byte WRITE ping-pong vs
 * NIO busy-poll ping-pong (median one-way of each slice). Client thread on CPU 0, server on CPU 1.
 *
 * <pre>java -cp bench/target/jwarp-jmh.jar org.jwarp.bench.loopback.InterleavedLoopbackBench [pairs] [slice seconds] [invoker|dedicated]</pre>
 */
public final class InterleavedLoopbackBench {

    private InterleavedLoopbackBench() {
    }

    public static void main(String[] args) throws Exception {
        int pairs = args.length > 0 ? Integer.parseInt(args[0]) : 20;
        double slice = args.length > 1 ? Double.parseDouble(args[1]) : 0.5;
        boolean dedicated = args.length > 2 && args[2].equals("dedicated");
        DeviceConfig config = dedicated
                ? DeviceConfig.builder().threadingMode(DeviceConfig.ThreadingMode.DEDICATED).engineThreads(1)
                        .idleStrategy(DeviceConfig.IdleStrategyKind.BACKOFF).build()
                : DeviceConfig.builder().threadingMode(DeviceConfig.ThreadingMode.INVOKER).build();
        int size = 65536;
        int iterations = (int) (slice * (dedicated ? 15_000 : 80_000));
        NioBaseline.stream(size, 1, 0, 1); // warm-up: the JIT compiles both stacks' data paths
        NioBaseline.pingPong(8, 20_000, 0, 1);
        double[] bw = new double[pairs];
        double[] lat = new double[pairs];
        double[] nioGbps = new double[pairs];
        double[] jwGbps = new double[pairs];
        double[] nioUs = new double[pairs];
        double[] jwUs = new double[pairs];
        try (JwarpLoopback j = new JwarpLoopback(config)) {
            j.writeBandwidth(size, 1, 0, 1);
            j.writeLatency(8, 20_000, 0, 1);
            for (int p = 0; p < pairs; p++) {
                // alternate which goes first, so that a trend in the load favours neither
                if (p % 2 == 0) {
                    nioGbps[p] = NioBaseline.stream(size, slice, 0, 1).gbps();
                    jwGbps[p] = j.writeBandwidth(size, slice, 0, 1).gbps();
                    nioUs[p] = NioBaseline.pingPong(8, iterations, 0, 1)[1];
                    jwUs[p] = j.writeLatency(8, iterations, 0, 1)[1];
                } else {
                    jwGbps[p] = j.writeBandwidth(size, slice, 0, 1).gbps();
                    nioGbps[p] = NioBaseline.stream(size, slice, 0, 1).gbps();
                    jwUs[p] = j.writeLatency(8, iterations, 0, 1)[1];
                    nioUs[p] = NioBaseline.pingPong(8, iterations, 0, 1)[1];
                }
                bw[p] = jwGbps[p] / nioGbps[p];
                lat[p] = jwUs[p] / nioUs[p];
                System.out.printf("pair %2d: NIO %6.2f Gb/s, jwarp %6.2f Gb/s (%.2f) | one-way NIO %5.2f µs,"
                        + " jwarp %5.2f µs (%.2f)%n", p + 1, nioGbps[p], jwGbps[p], bw[p], nioUs[p], jwUs[p], lat[p]);
            }
        }
        String mode = dedicated ? "dedicated" : "invoker";
        System.out.println();
        System.out.printf("jwarp %s vs NIO, %d interleaved pairs of %.2f s: median [quartiles]%n", mode, pairs, slice);
        System.out.printf("  64 KiB WRITE bandwidth: NIO %s Gb/s, jwarp %s Gb/s, ratio %s%n", q(nioGbps), q(jwGbps), q(bw));
        System.out.printf("  8 B WRITE one-way:      NIO %s µs,  jwarp %s µs,  ratio %s%n", q(nioUs), q(jwUs), q(lat));
    }

    /** Median and quartiles. */
    private static String q(double[] xs) {
        double[] s = xs.clone();
        Arrays.sort(s);
        return String.format("%.2f [%.2f-%.2f]", s[s.length / 2], s[s.length / 4], s[(3 * s.length) / 4]);
    }
}
