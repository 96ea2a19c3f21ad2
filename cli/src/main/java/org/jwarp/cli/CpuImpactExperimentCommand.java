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

/** {@code jwarp experiment cpu-impact}: seed 000's Fig. 7, a server job's time under background streams. */
@Command(name = "cpu-impact", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Seed 000's Fig. 7: the execution time of a fixed CPU-bound job in a server application, alone "
                + "and while many clients stream messages to it, by RDMA WRITE (placed by jwarp's engine, the "
                + "application never involved) and by sockets (the application reads them); over the message size "
                + "(two processes on loopback), and at 16 KiB over the delay degen adds between the testbed's hosts "
                + "(needs root; skipped otherwise).",
                "Quick: 8 clients, 1, 16 and 256 KiB, delays 0, 2 and 10 ms at 16 KiB, a 0.4 s job, one run per point."})
final class CpuImpactExperimentCommand implements Callable<Integer> {

    static final String TESTBED_NAME = "jwcpu";

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

    @Option(names = "--clients", paramLabel = "N", description = "Streaming clients instead of the mode's (the paper: "
            + "40).")
    Integer clients;

    @Option(names = "--job-ms", paramLabel = "MS", description = "The job's length alone instead of the mode's.")
    Double jobMs;

    @Override
    public Integer call() throws Exception {
        boolean pinned = placement.pinned(spec);
        CpuImpactExperiment.Plan base = options.quick ? CpuImpactExperiment.Plan.quick(pinned)
                : CpuImpactExperiment.Plan.full(pinned);
        CpuImpactExperiment.Plan plan = new CpuImpactExperiment.Plan(
                ExperimentOptions.check(spec, sizes, base.sizes(), 1, 1 << 24, "--sizes", "bytes"), base.delaysMs(),
                ExperimentOptions.check(spec, clients == null ? null : List.of(clients), List.of(base.clients()), 1, 256,
                        "--clients", "clients").getFirst(),
                ExperimentOptions.check(spec, jobMs == null ? null : List.of(jobMs), List.of(base.jobMs()), 10, 60_000,
                        "--job-ms", "ms").getFirst(), base.repeats(), pinned);
        List<String> notes = new ArrayList<>();
        notes.add(ApplicationCpu.describe(pinned) + "; the server application is the measured thread; the clients are "
                + "one process on the same machine; jwarp devices with an engine thread of their own that sleeps when "
                + "idle");
        boolean delays = where.delaySweep(notes);
        PrintWriter pw = spec.commandLine().getOut();
        Path dir = options.dir("cpu-impact");
        pw.printf(Locale.ROOT, "jwarp experiment cpu-impact (%s): %d clients, sizes %s%s, a %.0f ms job%n",
                options.mode(), plan.clients(), plan.sizes(), delays ? ", delays " + plan.delaysMs()
                        + " ms at 16 KiB" : "", plan.jobMs());
        pw.flush();
        List<CpuImpactExperiment.Point> points = ExperimentProcesses.loopbackThenDelays(
                (hosts, d, progress) -> CpuImpactExperiment.sizes(plan, hosts, progress), delays,
                (hosts, d, progress) -> CpuImpactExperiment.delay(plan, hosts, d, progress), TESTBED_NAME,
                plan.delaysMs(), "the clients on host A, the server on host B", plan.points(delays),
                CpuImpactExperimentCommand::line, notes, pw);
        ExperimentData.printSummary(pw, dir, CpuImpactExperiment.write(dir, plan, points, options.mode(), notes));
        return 0;
    }

    private static String line(CpuImpactExperiment.Point p) {
        return String.format(Locale.ROOT, "  %-5s %-7s %8d B  delay %5.1f ms: job %8.1f ms alone, %8.1f ms loaded (x%.2f), "
                + "%8.1f MiB/s received", p.part(), p.stack(), p.size(), p.delayMs(), p.aloneMs(), p.loadedMs(),
                p.slowdown(), p.rxMibS());
    }
}
