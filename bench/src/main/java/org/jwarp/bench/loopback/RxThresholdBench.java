package org.jwarp.bench.loopback;

import java.util.List;
import org.jwarp.bench.perf.ResultRow;
import org.jwarp.bench.perf.TestKind;
import org.jwarp.bench.perf.TransportKind;
import org.jwarp.bench.run.LoopbackRun;
import org.jwarp.bench.run.Placement;
import org.jwarp.bench.transport.jwarp.JwarpOptions;
import org.jwarp.engine.provider.JwarpConfig;
import org.jwarp.verbs.DeviceConfig;

/**
 * How the zero-copy receive threshold was chosen: RDMA WRITE streaming bandwidth per message size
 * with every large-enough segment read straight into the target ({@code JwarpConfig.rxDirectFrom} 1)
 * against every segment going through the staging buffer ({@code NEVER_DIRECT}), the two alternating
 * within each repeat; invoker mode, client on CPU 0, server on CPU 1. A ratio above 1 means
 * direct placement pays at that size.
 *
 * <pre>java -cp bench/target/jwarp-jmh.jar org.jwarp.bench.loopback.RxThresholdBench [repeats] [seconds] [sizes...]</pre>
 */
public final class RxThresholdBench {

    private RxThresholdBench() {
    }

    public static void main(String[] args) throws Exception {
        int repeats = BenchArgs.repeats(args, 5);
        double seconds = BenchArgs.seconds(args, 2);
        List<Integer> sizes = BenchArgs.sizes(args, List.of(2048, 4096, 8192, 16384, 32768, 65536));
        JwarpOptions invoker = new JwarpOptions(DeviceConfig.builder().provider(JwarpConfig.builder()
                .threadingMode(JwarpConfig.ThreadingMode.INVOKER).build()).build(), List.of(), false, false);
        double[][] on = new double[sizes.size()][repeats];
        double[][] off = new double[sizes.size()][repeats];
        run(invoker, "1", 65536, 1); // warm-up: the JIT compiles both paths
        run(invoker, "off", 65536, 1);
        for (int r = 0; r < repeats; r++) {
            for (int s = 0; s < sizes.size(); s++) {
                boolean directFirst = (r + s) % 2 == 0;
                int size = sizes.get(s);
                if (directFirst) {
                    on[s][r] = run(invoker, "1", size, seconds);
                    off[s][r] = run(invoker, "off", size, seconds);
                } else {
                    off[s][r] = run(invoker, "off", size, seconds);
                    on[s][r] = run(invoker, "1", size, seconds);
                }
                System.out.printf("run %d, %6d B: staging %.2f Gb/s, direct %.2f Gb/s (%.2f)%n", r + 1, size,
                        off[s][r], on[s][r], on[s][r] / off[s][r]);
            }
        }
        RxPathBench.summary("size", "Gb/s", 2, sizes, off, on);
    }

    /** The perf workload's RDMA WRITE bandwidth in Gb/s (client on CPU 0, server on CPU 1); each run opens its devices. */
    private static double run(JwarpOptions options, String directFrom, int size, double seconds) {
        DeviceConfig device = options.device().toBuilder()
                .provider(options.jwarp().toBuilder().rxDirectFrom(RxPathBench.directFrom(directFrom)).build()).build();
        ResultRow row = LoopbackRun.run(TestKind.WRITE_BW, TransportKind.JWARP, size, 0, (long) (seconds * 1000),
                new JwarpOptions(device, options.engineCpus(), options.allowOversubscribe(), options.yieldWhenIdle(),
                        options.moderation()), Placement.of(List.of(0, 1), true, 0));
        return row.bwAverage() * 8 / 1e9;
    }
}
