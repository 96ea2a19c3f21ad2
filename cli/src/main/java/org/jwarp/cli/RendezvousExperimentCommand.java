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

/** {@code jwarp experiment rendezvous}: seed 000's Fig. 9, eager copies against address exchange. */
@Command(name = "rendezvous", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Seed 000's Fig. 9: moving a message into a receiver's buffer by eager SENDs (copies through "
                + "pre-posted receive buffers) against WRITE-based and READ-based rendezvous (an address exchange per "
                + "message); the message latency and the receiver's CPU per message, by size (two processes on "
                + "loopback), and at 64 KiB by the delay degen adds between the testbed's hosts (needs root; skipped "
                + "otherwise).",
                "Quick: sizes 1, 16, 256 and 1024 KiB, delays 0, 2 and 10 ms, 100 messages per point, one run."})
final class RendezvousExperimentCommand implements Callable<Integer> {

    static final String TESTBED_NAME = "jwrndv";

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

    @Option(names = "--messages", paramLabel = "N", description = "Messages per point instead of the mode's.")
    Integer messages;


    @Override
    public Integer call() throws Exception {
        RendezvousExperiment.Plan base = options.quick ? RendezvousExperiment.Plan.quick()
                : RendezvousExperiment.Plan.full();
        int n = ExperimentOptions.range(spec, messages, base.messages(), 1, 1_000_000, "--messages");
        RendezvousExperiment.Plan plan = new RendezvousExperiment.Plan(
                ExperimentOptions.sizes(spec, "--sizes", sizes, base.sizes()), base.delaysMs(),
                repeats.orElse(base.repeats()), n, Math.min(base.warmup(), n));
        List<String> notes = new ArrayList<>();
        notes.add(Runtime.getRuntime().availableProcessors() + " CPUs; no pinning; each side's device has an engine "
                + "thread of its own that sleeps in its selector when idle; both applications sleep on completion events");
        boolean delays = where.delaySweep(notes);
        PrintWriter pw = spec.commandLine().getOut();
        Path dir = options.dir("rendezvous");
        pw.printf(Locale.ROOT, "jwarp experiment rendezvous (%s): sizes %s%s, %d messages per point, %d run(s)%n",
                options.mode(), plan.sizes(), delays ? ", delays " + plan.delaysMs() + " ms at 64 KiB" : "",
                plan.messages(), plan.repeats());
        pw.flush();
        List<RendezvousExperiment.Point> points = ExperimentProcesses.loopbackThenDelays(
                (hosts, d, progress) -> RendezvousExperiment.sizes(plan, hosts, progress), delays,
                (hosts, d, progress) -> RendezvousExperiment.delay(plan, hosts, d, progress), TESTBED_NAME,
                plan.delaysMs(), "64 KiB messages between hosts A and B", plan.points(delays),
                RendezvousExperimentCommand::line, notes, pw);
        ExperimentData.printSummary(pw, dir, RendezvousExperiment.write(dir, plan, points, options.mode(), notes));
        return 0;
    }

    private static String line(RendezvousExperiment.Point p) {
        return String.format(Locale.ROOT, "  %-5s %-5s %8d B  delay %5.1f ms: median %10.1f us, p99 %10.1f us; receiver CPU/msg "
                + "app %7.1f us, engine %7.1f us", p.part(), p.protocol(), p.size(), p.delayMs(), p.medianUs(),
                p.p99Us(), p.serverAppUs(), p.serverEngineUs());
    }
}
