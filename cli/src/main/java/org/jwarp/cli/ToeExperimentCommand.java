package org.jwarp.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Callable;
import org.jwarp.bench.experiment.ToeExperiment;
import org.jwarp.bench.experiment.ToeReport;
import org.jwarp.degen.LinkParams;
import org.jwarp.degen.RouterTuning;
import org.jwarp.degen.testbed.Emulator;
import org.jwarp.degen.testbed.Testbed;
import org.jwarp.degen.testbed.TestbedException;
import org.jwarp.degen.testbed.Topology;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code jwarp experiment toe}: seed 001's host-CPU measurement of the offloaded sockets. */
@Command(name = "toe", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Seed 001's Tables I and II: a one-way stream, the host passing data in 8 KiB and 128 KiB chunks, "
                + "through jwarp's offloaded sockets (each side's host on one CPU, its engine thread on the other) "
                + "and through Java sockets (each side on one CPU); throughput and host CPU as %% of one CPU per Gb/s, sending and receiving, beside the paper's.",
                "Places: loopback (two processes), and the testbed (hosts A and B in network namespaces joined by a "
                        + "veth pair, no added delay, MTU 1500), which needs root.",
                "Quick: one 1.5 s run per point."})
final class ToeExperimentCommand implements Callable<Integer> {

    /** The testbed this experiment brings up and down (not the user's default one). */
    static final String TESTBED_NAME = "jwtoe";

    @Spec
    CommandSpec spec;

    @Mixin
    ExperimentOptions options;

    @Mixin
    ExperimentOptions.Repeats repeats;

    @Option(names = "--where", paramLabel = "PLACE", defaultValue = "auto",
            description = "loopback, testbed, both, or auto: loopback, and the testbed too when running as root "
                    + "(default: ${DEFAULT-VALUE}).")
    String where;

    @Option(names = "--seconds", paramLabel = "S", description = "Seconds per run instead of the mode's.")
    Double seconds;

    @Override
    public Integer call() throws Exception {
        ToeExperiment.Plan base = options.quick ? ToeExperiment.Plan.quick() : ToeExperiment.Plan.full();
        ToeExperiment.Plan plan = new ToeExperiment.Plan(base.chunks(),
                ExperimentOptions.range(spec, seconds, base.seconds(), 0.2, 600, "--seconds"),
                repeats.orElse(base.repeats()));
        PrintWriter pw = spec.commandLine().getOut();
        List<String> notes = new ArrayList<>();
        notes.add(Runtime.getRuntime().availableProcessors() + " CPUs: sender host CPU " + ToeExperiment.SENDER_HOST_CPU
                + ", sender engine CPU " + ToeExperiment.SENDER_ENGINE_CPU + ", receiver host CPU "
                + ToeExperiment.RECEIVER_HOST_CPU + ", receiver engine CPU " + ToeExperiment.RECEIVER_ENGINE_CPU);
        boolean testbed = switch (where.toLowerCase(Locale.ROOT)) {
            case "loopback" -> false;
            case "testbed", "both" -> true;
            case "auto" -> ExperimentOptions.testbedPossible(notes, "testbed");
            default -> throw new ParameterException(spec.commandLine(), "--where takes loopback, testbed, both or auto, "
                    + "not '" + where + "'");
        };
        List<ToeExperiment.Where> places = new ArrayList<>();
        if (!where.equalsIgnoreCase("testbed")) {
            places.add(ToeExperiment.Where.loopback());
        }
        Testbed tb = null;
        if (testbed) {
            tb = new Testbed(TESTBED_NAME);
            try {
                Testbed.requireCapable();
            } catch (TestbedException e) {
                throw new ParameterException(spec.commandLine(), "the testbed needs root: " + e.getMessage()
                        + " (or use --where loopback)");
            }
            Topology t = tb.topologyFor(1500, 1500);
            pw.println(tb.up(Emulator.TBF, tb.config(LinkParams.passThrough(), LinkParams.passThrough(), 1500, 1500,
                    RouterTuning.DEFAULT, 1), null).lines().findFirst().orElse(""));
            places.add(new ToeExperiment.Where("testbed", "hosts A and B in network namespaces " + t.nsA() + " and "
                    + t.nsB() + ", a veth pair, no added delay, MTU 1500",
                    List.of("ip", "netns", "exec", t.nsA()), List.of("ip", "netns", "exec", t.nsB()),
                    t.addressOf("B"), t.addressOf("B")));
        }
        Path dir = options.dir("toe");
        int total = places.size() * plan.repeats() * plan.chunks().size() * 2;
        pw.printf(Locale.ROOT, "jwarp experiment toe (%s): %s, chunks %s, %.1f s per run, %d run(s) per point; "
                        + "%d runs%n", options.mode(), places.stream().map(ToeExperiment.Where::name).toList(),
                plan.chunks(), plan.seconds(), plan.repeats(), total);
        pw.flush();
        List<ToeExperiment.Run> runs;
        try (ExperimentProgress bar = new ExperimentProgress(pw, total)) {
            runs = ToeExperiment.run(plan, places, r -> bar.point(String.format(Locale.ROOT, "  %-8s %-7s %6d B chunks: "
                            + "%.2f Gb/s, host %%CPU/Gb/s send %.1f receive %.1f", r.where(), r.sender().stack(),
                    r.sender().chunk(), r.receiver().gbps(), r.sender().hostPercentPerGbps(),
                    r.receiver().hostPercentPerGbps())));
        } finally {
            if (tb != null) {
                try {
                    tb.down();
                } catch (IOException e) {
                    pw.println("taking the testbed down failed: " + e.getMessage());
                }
            }
        }
        pw.println();
        for (ToeExperiment.Where w : places) {
            pw.println(ToeReport.table(runs, w, plan.chunks()));
        }
        List<Path> files = ToeReport.write(dir, plan, places, runs, options.mode(), notes);
        pw.println("wrote " + files.size() + " files to " + dir);
        pw.flush();
        return 0;
    }
}
