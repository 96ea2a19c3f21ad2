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
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.Spec;

/** {@code jwarp experiment verbs-options}: seed 003's study of the verbs options, Fig. 1 to 6. */
@Command(name = "verbs-options", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Seed 003's Fig. 1-6: the ping and blast tools over jwarp (the perf tests, --loopback, in this "
                + "process), one verbs option varied at a time: the opcode set (SEND/RECV, WRITE, WRITE WITH IMM/RECV, "
                + "READ), inline or not, busy polling or completion events, 1 to 128 outstanding buffers, one work "
                + "request per post or post lists, full or periodic signaling; one-way time, throughput and each side's "
                + "CPU.",
                "Parts (figures): ping (Fig. 1), blast-small (Fig. 2), buffers (Fig. 3), buffers-large (Fig. 4), "
                        + "opcodes-large (Fig. 5), signaling (Fig. 6a-b).",
                "Quick: a few sizes and buffer counts per part, 0.3 s measured per point, one run."})
final class VerbsOptionsExperimentCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    ExperimentOptions options;

    @Mixin
    ExperimentOptions.Repeats repeats;

    @Option(names = "--parts", paramLabel = "PART,...", split = ",", description = "Which parts (figures) run instead of "
            + "all of them.")
    List<String> parts;

    @Option(names = "--buffers", paramLabel = "N,...", split = ",", description = "Outstanding buffer counts (Fig. 3, 4 "
            + "and 6) instead of the mode's.")
    List<Integer> buffers;

    @Option(names = "--seconds", paramLabel = "S", description = "Measured seconds per point instead of the mode's.")
    Double seconds;

    @Override
    public Integer call() throws Exception {
        VerbsOptionsExperiment.Plan base = options.quick ? VerbsOptionsExperiment.Plan.quick()
                : VerbsOptionsExperiment.Plan.full();
        if (parts != null && !VerbsOptionsExperiment.PARTS.containsAll(parts)) {
            throw new ParameterException(spec.commandLine(), "--parts takes " + String.join(", ",
                    VerbsOptionsExperiment.PARTS) + ", not " + String.join(",", parts));
        }
        VerbsOptionsExperiment.Plan plan = new VerbsOptionsExperiment.Plan(parts == null ? base.parts()
                : List.copyOf(parts), base.pingSizes(), base.smallSizes(), base.bufferSizes(),
                ExperimentOptions.check(spec, buffers, base.buffers(), 1, 128, "--buffers", "buffers"), base.largeSizes(),
                ExperimentOptions.check(spec, buffers, base.largeBuffers(), 1, 128, "--buffers", "buffers"),
                base.opcodeSizes(), repeats.orElse(base.repeats()),
                ExperimentOptions.range(spec, seconds, base.seconds(), 0.05, 600, "--seconds"));
        List<String> notes = new ArrayList<>();
        notes.add(Runtime.getRuntime().availableProcessors() + " CPUs; " + (VerbsOptionsExperiment.pinning() == null
                ? "no pinning" : "client threads on CPU 0, server threads on CPU 1") + "; jwarp in its default threading "
                + "mode for this machine");
        PrintWriter pw = spec.commandLine().getOut();
        Path dir = options.dir("verbs-options");
        int total = plan.settings().size();
        pw.printf(Locale.ROOT, "jwarp experiment verbs-options (%s): parts %s, %d points, %.1f s measured each, %d run(s)%n",
                options.mode(), plan.parts(), total, plan.seconds(), plan.repeats());
        pw.flush();
        List<String> threads = new ArrayList<>();
        List<VerbsOptionsExperiment.Point> points;
        try (ExperimentProgress bar = new ExperimentProgress(pw, total)) {
            points = VerbsOptionsExperiment.run(plan, threads, p -> bar.point(line(p)));
        }
        for (String t : threads) {
            notes.add("where threads ran (first point): " + t);
        }
        ExperimentData.printSummary(pw, dir, VerbsOptionsExperiment.write(dir, plan, points, options.mode(), notes));
        return 0;
    }

    private static String line(VerbsOptionsExperiment.Point p) {
        return String.format(Locale.ROOT, "  %-13s %-9s %-6s %-6s %8d B x%-3d list %-3d signal/%-3d: one-way %9.3f us, "
                        + "%8.3f Gb/s, CPU client %3.0f %% server %3.0f %%", p.part(), p.opcode(), p.inline() ? "inline"
                        : "-", p.events() ? "events" : "busy", p.size(), p.buffers(), p.postList(), p.cqMod(),
                p.oneWayUs(), p.gbps(), p.activeCpuPct(), p.passiveCpuPct());
    }
}
