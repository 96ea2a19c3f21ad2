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

/** {@code jwarp experiment iwarp-vs-tcp}: seed 002's latency, throughput, CRC and CPU comparison. */
@Command(name = "iwarp-vs-tcp", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Seed 002's Tables 1-2 and Fig. 2-4: RDMA WRITE ping-pong latency and one-way stream "
                + "throughput between two jwarp processes with MPA CRC on and off, against Java TCP sockets; during "
                + "the stream, each side's CPU by message size, by thread CPU time and by a low-priority cycle soaker "
                + "on each side's CPU (server on CPU 0, client on CPU 1).",
                "Quick: latency at 4 B and 64 KiB, throughput at 4 and 64 KiB for 1 s, one run per point."})
final class IwarpVsTcpExperimentCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Mixin
    ExperimentOptions options;

    @Mixin
    ExperimentOptions.Repeats repeats;

    @Option(names = "--latency-sizes", paramLabel = "BYTES,...", split = ",", description = "Ping-pong sizes instead "
            + "of the mode's.")
    List<Integer> latencySizes;

    @Option(names = "--throughput-sizes", paramLabel = "BYTES,...", split = ",", description = "Stream message sizes "
            + "instead of the mode's.")
    List<Integer> throughputSizes;

    @Option(names = "--seconds", paramLabel = "S", description = "Seconds per throughput run instead of the mode's.")
    Double seconds;


    @Override
    public Integer call() throws Exception {
        IwarpVsTcpExperiment.Plan base = options.quick ? IwarpVsTcpExperiment.Plan.quick()
                : IwarpVsTcpExperiment.Plan.full();
        IwarpVsTcpExperiment.Plan plan = new IwarpVsTcpExperiment.Plan(
                ExperimentOptions.sizes(spec, "--latency-sizes", latencySizes, base.latencySizes()),
                ExperimentOptions.sizes(spec, "--throughput-sizes", throughputSizes, base.throughputSizes()),
                repeats.orElse(base.repeats()), base.roundTrips(),
                ExperimentOptions.range(spec, seconds, base.seconds(), 0.1, 600, "--seconds"), base.calibrateMillis());
        IwarpVsTcpExperiment.Pinning pin = IwarpVsTcpExperiment.Pinning.forThisMachine();
        List<String> notes = new ArrayList<>();
        notes.add(Runtime.getRuntime().availableProcessors() + " CPUs; " + pin.description()
                + "; jwarp in its default threading mode for a one-CPU process");
        notes.add("the machine may be shared: a soaker counts any other work on its CPU as load");
        PrintWriter pw = spec.commandLine().getOut();
        Path dir = options.dir("iwarp-vs-tcp");
        pw.printf(Locale.ROOT, "jwarp experiment iwarp-vs-tcp (%s): latency sizes %s, throughput sizes %s (%.1f s), "
                        + "%d run(s) per point; %s%n", options.mode(), plan.latencySizes(), plan.throughputSizes(),
                plan.seconds(), plan.repeats(), pin.description());
        pw.flush();
        List<IwarpVsTcpExperiment.Point> points;
        int total = plan.repeats() * IwarpVsTcpExperiment.STACKS.size() * (plan.latencySizes().size()
                + plan.throughputSizes().size());
        try (ExperimentProgress bar = new ExperimentProgress(pw, total)) {
            points = new ArrayList<>(IwarpVsTcpExperiment.latency(plan, pin, p -> bar.point(line(p))));
            points.addAll(IwarpVsTcpExperiment.throughput(plan, pin, notes, p -> bar.point(line(p))));
        }
        ExperimentData.printSummary(pw, dir, IwarpVsTcpExperiment.write(dir, plan, points, options.mode(), notes));
        return 0;
    }

    private static String line(IwarpVsTcpExperiment.Point p) {
        return p.part().equals("latency")
                ? String.format(Locale.ROOT, "  latency    %-11s %7d B: typical %9.2f us, p99 %9.2f us", p.stack(),
                        p.size(), p.typicalUs(), p.p99Us())
                : String.format(Locale.ROOT, "  throughput %-11s %7d B: %7.3f Gb/s; CPU %% sender %3.0f (soaker %3.0f), "
                        + "receiver %3.0f (soaker %3.0f)", p.stack(), p.size(), p.gbps(), p.clientThreadPct(),
                        p.clientSoakPct(), p.serverThreadPct(), p.serverSoakPct());
    }
}
