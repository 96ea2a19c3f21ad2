package org.jwarp.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code jwarp experiment latency}: seed 000's Fig. 3 (latency by size) and Fig. 8 (latency by WAN delay). */
@Command(name = "latency", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Seed 000's Fig. 3 and Fig. 8: one-way latency of an RDMA WRITE ping-pong against a TCP sockets "
                + "ping-pong, by message size with no added delay (two processes on loopback), and at 1 KiB by the "
                + "one-way delay degen adds between the testbed's two hosts (needs root; skipped otherwise)."})
final class LatencyExperimentCommand implements Callable<Integer> {

    static final String TESTBED_NAME = "jwlat";

    @Spec
    CommandSpec spec;

    @Option(names = "--quick", description = "5 sizes, delays 0, 2 and 10 ms, one run per point (under 2 minutes).")
    boolean quick;

    @Option(names = "--where", paramLabel = "PLACE", defaultValue = "auto", description = "loopback (sizes only), "
            + "both, or auto: the delay sweep too when running as root (default: ${DEFAULT-VALUE}).")
    String where;

    @Option(names = "--repeats", paramLabel = "N", description = "Runs per point instead of the mode's.")
    Integer repeats;

    @Option(names = "--sizes", paramLabel = "BYTES,...", split = ",", description = "Message sizes instead of the mode's.")
    List<Integer> sizes;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default results/latency-TIMESTAMP).")
    Path out;

    @Override
    public Integer call() throws Exception {
        LatencyExperiment.Plan base = quick ? LatencyExperiment.Plan.quick() : LatencyExperiment.Plan.full();
        if (repeats != null && (repeats < 1 || repeats > 50)) {
            throw new ParameterException(spec.commandLine(), "--repeats must be 1 to 50, not " + repeats);
        }
        if (sizes != null) {
            for (int sz : sizes) {
                if (sz < 1 || sz > (1 << 23)) {
                    throw new ParameterException(spec.commandLine(), "--sizes takes sizes of 1 to 8388608 bytes, not " + sz);
                }
            }
        }
        LatencyExperiment.Plan plan = new LatencyExperiment.Plan(sizes != null ? List.copyOf(sizes) : base.sizes(),
                base.delaysMs(),
                repeats == null ? base.repeats() : repeats, base.iterations());
        List<String> notes = new ArrayList<>();
        notes.add(Runtime.getRuntime().availableProcessors() + " CPUs; no pinning: each process's threads go where the "
                + "kernel puts them; jwarp in its default threading mode");
        boolean delays = ExperimentProcesses.delaySweep(spec, where, notes);
        PrintWriter pw = spec.commandLine().getOut();
        Path dir = out != null ? out : ExperimentProcesses.defaultDir("latency");
        pw.printf(Locale.ROOT, "jwarp experiment latency (%s): sizes %s%s, %d run(s) per point%n", quick ? "quick" : "full",
                plan.sizes(), delays ? ", delays " + plan.delaysMs() + " ms at 1 KiB" : "", plan.repeats());
        pw.flush();
        List<LatencyExperiment.Point> points = new ArrayList<>(LatencyExperiment.sizes(plan,
                LatencyExperiment.Hosts.loopback(), p -> progress(pw, p)));
        if (delays) {
            ExperimentProcesses.overDelays(TESTBED_NAME, plan.delaysMs(), notes, pw, (hosts, d) -> {
                for (int r = 0; r < plan.repeats(); r++) {
                    for (String tr : LatencyExperiment.TRANSPORTS) {
                        LatencyExperiment.Point p = LatencyExperiment.delayPoint(plan, hosts, tr, d, r);
                        points.add(p);
                        progress(pw, p);
                    }
                }
            });
            notes.add("delay sweep: hosts A and B of testbed " + TESTBED_NAME + " (network namespaces) joined by degen, "
                    + "MTU 1500, the delay added in each direction");
        }
        ExperimentFiles.summary(pw, dir, LatencyExperiment.write(dir, plan, points, quick ? "quick" : "full", notes));
        return 0;
    }

    private static void progress(PrintWriter pw, LatencyExperiment.Point p) {
        pw.printf(Locale.ROOT, "  %-5s %-16s %6d B  delay %5.1f ms: typical %9.2f us, p99 %9.2f us%n", p.part(),
                p.transport(), p.size(), p.delayMs(), p.typicalUs(), p.p99Us());
        pw.flush();
    }
}
