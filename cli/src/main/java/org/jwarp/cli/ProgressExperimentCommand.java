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

/** {@code jwarp experiment progress}: seed 000's Fig. 6, fetching from a busy process. */
@Command(name = "progress", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Seed 000's Fig. 4b and 6: the latency to fetch 1 KiB from a process busy in a dummy loop, by RDMA "
                + "READ and by a sockets request/response, over the remote load (two processes on loopback), and at 16 ms "
                + "of load over the delay degen adds between the testbed's hosts (needs root; skipped otherwise).",
                "Quick: loads 0, 1, 4 and 16 ms, delays 0, 2 and 10 ms, 40 fetches, one run per point."})
final class ProgressExperimentCommand implements Callable<Integer> {

    static final String TESTBED_NAME = "jwprog";

    @Spec
    CommandSpec spec;

    @Mixin
    ExperimentOptions options;

    @Mixin
    ExperimentOptions.Where where;

    @Option(names = "--loads", paramLabel = "MS,...", split = ",", description = "Remote loads instead of the mode's.")
    List<Double> loads;

    @Override
    public Integer call() throws Exception {
        ProgressExperiment.Plan base = options.quick ? ProgressExperiment.Plan.quick() : ProgressExperiment.Plan.full();
        ProgressExperiment.Plan plan = new ProgressExperiment.Plan(ExperimentOptions.check(spec, loads, base.loadsMs(), 0,
                1000, "--loads", "ms"), base.delaysMs(), base.repeats(), base.fetches());
        List<String> notes = new ArrayList<>();
        notes.add(Runtime.getRuntime().availableProcessors() + " CPUs; no pinning; jwarp in its default threading mode "
                + "(on 2 CPUs: hybrid, so the busy server's READs are served by its standby engine thread)");
        boolean delays = where.delaySweep(notes);
        PrintWriter pw = spec.commandLine().getOut();
        Path dir = options.dir("progress");
        pw.printf(Locale.ROOT, "jwarp experiment progress (%s): loads %s ms%s, %d fetches of 1 KiB per point%n",
                options.mode(), plan.loadsMs(), delays ? ", delays " + plan.delaysMs() + " ms at 16 ms of load"
                        : "", plan.fetches());
        pw.flush();
        List<ProgressExperiment.Point> points = ExperimentProcesses.loopbackThenDelays(
                (hosts, d, progress) -> ProgressExperiment.loads(plan, hosts, progress), delays,
                (hosts, d, progress) -> ProgressExperiment.delay(plan, hosts, d, progress), TESTBED_NAME,
                plan.delaysMs(), "hosts A and B, 16 ms of remote load,", plan.points(delays),
                ProgressExperimentCommand::line, notes, pw);
        ExperimentData.printSummary(pw, dir, ProgressExperiment.write(dir, plan, points, options.mode(), notes));
        return 0;
    }

    private static String line(ProgressExperiment.Point p) {
        return String.format(Locale.ROOT, "  %-5s %-8s load %5.1f ms  delay %5.1f ms: median %10.1f us, p99 %10.1f us", p.part(),
                p.stack(), p.loadMs(), p.delayMs(), p.medianUs(), p.p99Us());
    }
}
