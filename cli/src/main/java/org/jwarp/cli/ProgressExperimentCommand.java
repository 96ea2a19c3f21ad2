package org.jwarp.cli;

import java.io.PrintWriter;
import java.nio.file.Files;
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

/** {@code jwarp experiment progress}: seed 000's Fig. 6, fetching from a busy process. */
@Command(name = "progress", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Seed 000's Fig. 4b and 6: the latency to fetch 1 KiB from a process busy in a dummy loop, by RDMA "
                + "READ and by a sockets request/response, over the remote load (two processes on loopback), and at 16 ms "
                + "of load over the delay degen adds between the testbed's hosts (needs root; skipped otherwise)."})
final class ProgressExperimentCommand implements Callable<Integer> {

    static final String TESTBED_NAME = "jwprog";

    @Spec
    CommandSpec spec;

    @Option(names = "--quick", description = "Loads 0, 1, 4 and 16 ms, delays 0, 2 and 10 ms, 40 fetches, one run per "
            + "point (under 2 minutes).")
    boolean quick;

    @Option(names = "--where", paramLabel = "PLACE", defaultValue = "auto", description = "loopback (loads only), both, "
            + "or auto: the delay sweep too when running as root (default: ${DEFAULT-VALUE}).")
    String where;

    @Option(names = "--loads", paramLabel = "MS,...", split = ",", description = "Remote loads instead of the mode's.")
    List<Double> loads;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default results/progress-TIMESTAMP).")
    Path out;

    @Override
    public Integer call() throws Exception {
        ProgressExperiment.Plan base = quick ? ProgressExperiment.Plan.quick() : ProgressExperiment.Plan.full();
        if (loads != null) {
            for (double l : loads) {
                if (!(l >= 0 && l <= 1000)) {
                    throw new ParameterException(spec.commandLine(), "--loads takes 0 to 1000 ms, not " + l);
                }
            }
        }
        ProgressExperiment.Plan plan = new ProgressExperiment.Plan(loads != null ? List.copyOf(loads) : base.loadsMs(),
                base.delaysMs(), base.repeats(), base.fetches());
        List<String> notes = new ArrayList<>();
        notes.add(Runtime.getRuntime().availableProcessors() + " CPUs; no pinning; jwarp in its default threading mode "
                + "(on 2 CPUs: hybrid, so the busy server's READs are served by its standby engine thread)");
        boolean delays = ExperimentProcesses.delaySweep(spec, where, notes);
        PrintWriter pw = spec.commandLine().getOut();
        Path dir = out != null ? out : ExperimentProcesses.defaultDir("progress");
        pw.printf(Locale.ROOT, "jwarp experiment progress (%s): loads %s ms%s, %d fetches of 1 KiB per point%n",
                quick ? "quick" : "full", plan.loadsMs(), delays ? ", delays " + plan.delaysMs() + " ms at 16 ms of load"
                        : "", plan.fetches());
        pw.flush();
        List<ProgressExperiment.Point> points = new ArrayList<>(ProgressExperiment.loads(plan,
                LatencyExperiment.Hosts.loopback(), p -> progress(pw, p)));
        if (delays) {
            ExperimentProcesses.overDelays(TESTBED_NAME, plan.delaysMs(), notes, pw, (hosts, d) -> {
                for (int r = 0; r < plan.repeats(); r++) {
                    for (String s : ProgressExperiment.STACKS) {
                        ProgressExperiment.Point p = ProgressExperiment.once("delay", hosts, s,
                                ProgressExperiment.DELAY_SWEEP_LOAD_MS, d, r, Math.max(10, plan.fetches() / 2));
                        points.add(p);
                        progress(pw, p);
                    }
                }
            });
            notes.add("delay sweep: hosts A and B of testbed " + TESTBED_NAME + " joined by degen, MTU 1500, the delay "
                    + "added in each direction, 16 ms of remote load");
        }
        ExperimentFiles.summary(pw, dir, ProgressExperiment.write(dir, plan, points, quick ? "quick" : "full", notes));
        return 0;
    }

    private static void progress(PrintWriter pw, ProgressExperiment.Point p) {
        pw.printf(Locale.ROOT, "  %-5s %-8s load %5.1f ms  delay %5.1f ms: median %10.1f us, p99 %10.1f us%n", p.part(),
                p.stack(), p.loadMs(), p.delayMs(), p.medianUs(), p.p99Us());
        pw.flush();
    }
}
