package org.jwarp.cli;

import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;

/** {@code jwarp experiment latency}: seed 000's Fig. 3 (latency by size) and Fig. 8 (latency by WAN delay). */
@Command(name = "latency", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Seed 000's Fig. 3 and Fig. 8: one-way latency of an RDMA WRITE ping-pong against a TCP sockets "
                + "ping-pong, by message size with no added delay (two processes on loopback), and at 1 KiB by the "
                + "one-way delay degen adds between the testbed's two hosts (needs root; skipped otherwise).",
                "Quick: 5 sizes, delays 0, 2 and 10 ms, one run per point."})
final class LatencyExperimentCommand implements Callable<Integer> {

    static final String TESTBED_NAME = "jwlat";

    @Spec
    CommandSpec spec;

    @Mixin
    ExperimentOptions options;

    @Mixin
    ExperimentOptions.Where where;

    @Mixin
    ExperimentOptions.Repeats repeats;

    @Option(names = "--sizes", paramLabel = "BYTES,...", split = ",", description = "Message sizes instead of the mode's.")
    List<Integer> sizes;

    @Override
    public Integer call() throws Exception {
        LatencyExperiment.Plan base = options.quick ? LatencyExperiment.Plan.quick() : LatencyExperiment.Plan.full();
        LatencyExperiment.Plan plan = new LatencyExperiment.Plan(ExperimentOptions.sizes(spec, "--sizes", sizes,
                base.sizes()), base.delaysMs(), repeats.orElse(base.repeats()), base.iterations());
        List<String> notes = new ArrayList<>();
        notes.add(Runtime.getRuntime().availableProcessors() + " CPUs; no pinning: each process's threads go where the "
                + "kernel puts them; jwarp in its default threading mode");
        boolean delays = where.delaySweep(notes);
        PrintWriter pw = spec.commandLine().getOut();
        Path dir = options.dir("latency");
        pw.printf(Locale.ROOT, "jwarp experiment latency (%s): sizes %s%s, %d run(s) per point%n", options.mode(),
                plan.sizes(), delays ? ", delays " + plan.delaysMs() + " ms at 1 KiB" : "", plan.repeats());
        pw.flush();
        List<LatencyExperiment.Point> points = ExperimentProcesses.loopbackThenDelays(
                (hosts, d, progress) -> LatencyExperiment.sizes(plan, hosts, progress), delays,
                (hosts, d, progress) -> LatencyExperiment.delay(plan, hosts, d, progress), TESTBED_NAME,
                plan.delaysMs(), "hosts A and B", plan.points(delays),
                LatencyExperimentCommand::line, notes, pw);
        ExperimentData.printSummary(pw, dir, LatencyExperiment.write(dir, plan, points, options.mode(), notes));
        return 0;
    }

    private static String line(LatencyExperiment.Point p) {
        return String.format(Locale.ROOT, "  %-5s %-16s %6d B  delay %5.1f ms: typical %9.2f us, p99 %9.2f us", p.part(),
                p.transport(), p.size(), p.delayMs(), p.typicalUs(), p.p99Us());
    }
}
