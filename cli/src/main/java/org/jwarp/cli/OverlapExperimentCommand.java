package org.jwarp.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.jwarp.bench.experiment.ApplicationCpu;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code jwarp experiment overlap}: seed 000's Fig. 4a and 5, computation overlapping a ping-pong. */
@Command(name = "overlap", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Seed 000's Fig. 4a and 5: a client starts a ping-pong, computes for C ms, then finishes it; "
                + "overlap = computation / total time, by RDMA WRITE and by non-blocking sockets, over the computation "
                + "time (two processes on loopback), and at the paper's 242 ms of computation over the delay degen adds "
                + "between the testbed's hosts (needs root; skipped otherwise).",
                "Quick: 1 KiB (the paper's) and 1 MiB, computation 0.1 to 64 ms, delays 0, 2 and 10 ms at 242 ms, one "
                        + "run per point."})
final class OverlapExperimentCommand implements Callable<Integer> {

    static final String TESTBED_NAME = "jwovl";

    @Spec
    CommandSpec spec;

    @Mixin
    ExperimentOptions options;

    @Mixin
    ExperimentOptions.Where where;

    @Mixin
    ExperimentOptions.Placement placement;

    @Option(names = "--sizes", paramLabel = "BYTES,...", split = ",", description = "Message sizes instead of the mode's.")
    List<Integer> sizes;

    @Option(names = "--computes", paramLabel = "MS,...", split = ",", description = "Computation times instead of the "
            + "mode's.")
    List<Double> computes;

    @Option(names = "--delay-compute", paramLabel = "MS", description = "Computation time of the delay sweep instead of "
            + "the paper's 242 ms.")
    Double delayCompute;

    @Override
    public Integer call() throws Exception {
        boolean pinned = placement.pinned(spec);
        OverlapExperiment.Plan base = options.quick ? OverlapExperiment.Plan.quick(pinned) : OverlapExperiment.Plan.full(pinned);
        OverlapExperiment.Plan plan = new OverlapExperiment.Plan(
                ExperimentOptions.check(spec, sizes, base.sizes(), 1, 1 << 26, "--sizes", "bytes"),
                ExperimentOptions.check(spec, computes, base.computesMs(), 0.01, 10_000, "--computes", "ms"),
                base.delaysMs(), ExperimentOptions.check(spec, delayCompute == null ? null : List.of(delayCompute),
                List.of(base.delayComputeMs()), 0.01, 10_000, "--delay-compute", "ms").getFirst(), base.repeats(),
                base.seconds(), base.delayIterations(), pinned);
        List<String> notes = new ArrayList<>();
        notes.add(ApplicationCpu.describe(pinned) + "; jwarp devices with an engine thread of their own that sleeps "
                + "when idle");
        boolean delays = where.delaySweep(notes);
        PrintWriter pw = spec.commandLine().getOut();
        Path dir = options.dir("overlap");
        pw.printf(Locale.ROOT, "jwarp experiment overlap (%s): sizes %s, computation %s ms%s%n", options.mode(),
                plan.sizes(), plan.computesMs(), delays ? String.format(Locale.ROOT, ", delays %s ms at %.0f ms",
                        plan.delaysMs(), plan.delayComputeMs()) : "");
        pw.flush();
        List<OverlapExperiment.Point> points = ExperimentProcesses.loopbackThenDelays(
                (hosts, d, progress) -> OverlapExperiment.computes(plan, hosts, progress), delays,
                (hosts, d, progress) -> OverlapExperiment.delay(plan, hosts, d, progress), TESTBED_NAME,
                plan.delaysMs(), "the client on host A, the server on host B", plan.points(delays),
                OverlapExperimentCommand::line, notes, pw);
        ExperimentData.printSummary(pw, dir, OverlapExperiment.write(dir, plan, points, options.mode(), notes));
        return 0;
    }

    private static String line(OverlapExperiment.Point p) {
        return String.format(Locale.ROOT, "  %-7s %-7s %8d B  compute %7.2f ms  delay %5.1f ms: overlap %.3f (total %9.1f us, "
                + "round trip alone %8.1f us)", p.part(), p.stack(), p.size(), p.computeMs(), p.delayMs(), p.overlap(),
                p.totalUs(), p.roundTripUs());
    }
}
