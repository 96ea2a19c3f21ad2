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

/** {@code jwarp experiment rendezvous}: seed 000's Fig. 9, eager copies against address exchange. */
@Command(name = "rendezvous", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Seed 000's Fig. 9: moving a message into a receiver's buffer by eager SENDs (copies through "
                + "pre-posted receive buffers) against WRITE-based and READ-based rendezvous (an address exchange per "
                + "message); the message latency and the receiver's CPU per message, by size (two processes on "
                + "loopback), and at 64 KiB by the delay degen adds between the testbed's hosts (needs root; skipped "
                + "otherwise)."})
final class RendezvousExperimentCommand implements Callable<Integer> {

    static final String TESTBED_NAME = "jwrndv";

    @Spec
    CommandSpec spec;

    @Option(names = "--quick", description = "Sizes 1, 16, 256 and 1024 KiB, delays 0, 2 and 10 ms, 100 messages per "
            + "point, one run (under 2 minutes).")
    boolean quick;

    @Option(names = "--where", paramLabel = "PLACE", defaultValue = "auto", description = "loopback (sizes only), both, "
            + "or auto: the delay sweep too when running as root (default: ${DEFAULT-VALUE}).")
    String where;

    @Option(names = "--sizes", paramLabel = "BYTES,...", split = ",", description = "Message sizes instead of the mode's.")
    List<Integer> sizes;

    @Option(names = "--messages", paramLabel = "N", description = "Messages per point instead of the mode's.")
    Integer messages;

    @Option(names = "--repeats", paramLabel = "N", description = "Runs per point instead of the mode's.")
    Integer repeats;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default results/rendezvous-TIMESTAMP).")
    Path out;

    @Override
    public Integer call() throws Exception {
        RendezvousExperiment.Plan base = quick ? RendezvousExperiment.Plan.quick() : RendezvousExperiment.Plan.full();
        ExperimentOptions.repeats(spec, repeats);
        if (messages != null && (messages < 1 || messages > 1_000_000)) {
            throw new ParameterException(spec.commandLine(), "--messages must be 1 to 1000000, not " + messages);
        }
        RendezvousExperiment.Plan plan = new RendezvousExperiment.Plan(
                ExperimentOptions.sizes(spec, "--sizes", sizes, base.sizes()), base.delaysMs(),
                repeats == null ? base.repeats() : repeats, messages == null ? base.messages() : messages,
                Math.min(base.warmup(), messages == null ? base.warmup() : messages));
        List<String> notes = new ArrayList<>();
        notes.add(Runtime.getRuntime().availableProcessors() + " CPUs; no pinning; each side's device has an engine "
                + "thread of its own that sleeps in its selector when idle; both applications sleep on completion events");
        boolean delays = ExperimentProcesses.delaySweep(spec, where, notes);
        PrintWriter pw = spec.commandLine().getOut();
        Path dir = out != null ? out : ExperimentProcesses.defaultDir("rendezvous");
        pw.printf(Locale.ROOT, "jwarp experiment rendezvous (%s): sizes %s%s, %d messages per point, %d run(s)%n",
                quick ? "quick" : "full", plan.sizes(), delays ? ", delays " + plan.delaysMs() + " ms at 64 KiB" : "",
                plan.messages(), plan.repeats());
        pw.flush();
        List<RendezvousExperiment.Point> points = new ArrayList<>(RendezvousExperiment.sizes(plan,
                LatencyExperiment.Hosts.loopback(), p -> progress(pw, p)));
        if (delays) {
            ExperimentProcesses.overDelays(TESTBED_NAME, plan.delaysMs(), notes, pw,
                    (hosts, d) -> points.addAll(RendezvousExperiment.delay(plan, hosts, d, p -> progress(pw, p))));
            notes.add("delay sweep: hosts A and B of testbed " + TESTBED_NAME + " (network namespaces) joined by degen, "
                    + "MTU 1500, the delay added in each direction, 64 KiB messages");
        }
        List<Path> files = RendezvousExperiment.write(dir, plan, points, quick ? "quick" : "full", notes);
        ExperimentData.printSummary(pw, dir, files.size());
        return 0;
    }

    private static void progress(PrintWriter pw, RendezvousExperiment.Point p) {
        pw.printf(Locale.ROOT, "  %-5s %-5s %8d B  delay %5.1f ms: median %10.1f us, p99 %10.1f us; receiver CPU/msg "
                + "app %7.1f us, engine %7.1f us%n", p.part(), p.protocol(), p.size(), p.delayMs(), p.medianUs(),
                p.p99Us(), p.serverAppUs(), p.serverEngineUs());
        pw.flush();
    }
}
