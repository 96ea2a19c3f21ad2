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

/** {@code jwarp experiment iwarp-vs-tcp}: seed 002's latency, throughput, CRC and CPU comparison. */
@Command(name = "iwarp-vs-tcp", mixinStandardHelpOptions = true, sortOptions = false,
        description = {"Seed 002's Tables 1-2 and Fig. 2-4: RDMA WRITE ping-pong latency and one-way stream "
                + "throughput between two jwarp processes with MPA CRC on and off, against Java TCP sockets; during "
                + "the stream, each side's CPU by message size, by thread CPU time and by a low-priority cycle soaker "
                + "on each side's CPU (server on CPU 0, client on CPU 1)."})
final class IwarpVsTcpExperimentCommand implements Callable<Integer> {

    @Spec
    CommandSpec spec;

    @Option(names = "--quick", description = "Latency at 4 B and 64 KiB, throughput at 4 and 64 KiB for 1 s, one run per "
            + "point (under 2 minutes).")
    boolean quick;

    @Option(names = "--repeats", paramLabel = "N", description = "Runs per point instead of the mode's.")
    Integer repeats;

    @Option(names = "--latency-sizes", paramLabel = "BYTES,...", split = ",", description = "Ping-pong sizes instead "
            + "of the mode's.")
    List<Integer> latencySizes;

    @Option(names = "--throughput-sizes", paramLabel = "BYTES,...", split = ",", description = "Stream message sizes "
            + "instead of the mode's.")
    List<Integer> throughputSizes;

    @Option(names = "--seconds", paramLabel = "S", description = "Seconds per throughput run instead of the mode's.")
    Double seconds;

    @Option(names = "--out", paramLabel = "DIR", description = "Output directory (default results/iwarp-vs-tcp-TIMESTAMP).")
    Path out;

    @Override
    public Integer call() throws Exception {
        IwarpVsTcpExperiment.Plan base = quick ? IwarpVsTcpExperiment.Plan.quick() : IwarpVsTcpExperiment.Plan.full();
        ExperimentOptions.repeats(spec, repeats);
        if (seconds != null && !(seconds >= 0.1 && seconds <= 600)) {
            throw new ParameterException(spec.commandLine(), "--seconds must be 0.1 to 600, not " + seconds);
        }
        IwarpVsTcpExperiment.Plan plan = new IwarpVsTcpExperiment.Plan(
                ExperimentOptions.sizes(spec, "--latency-sizes", latencySizes, base.latencySizes()),
                ExperimentOptions.sizes(spec, "--throughput-sizes", throughputSizes, base.throughputSizes()),
                repeats == null ? base.repeats() : repeats, base.roundTrips(), seconds == null ? base.seconds() : seconds,
                base.calibrateMillis());
        IwarpVsTcpExperiment.Pinning pin = IwarpVsTcpExperiment.Pinning.forThisMachine();
        List<String> notes = new ArrayList<>();
        notes.add(Runtime.getRuntime().availableProcessors() + " CPUs; " + pin.description()
                + "; jwarp in its default threading mode for a one-CPU process");
        notes.add("the machine may be shared: a soaker counts any other work on its CPU as load");
        PrintWriter pw = spec.commandLine().getOut();
        Path dir = out != null ? out : ExperimentProcesses.defaultDir("iwarp-vs-tcp");
        pw.printf(Locale.ROOT, "jwarp experiment iwarp-vs-tcp (%s): latency sizes %s, throughput sizes %s (%.1f s), "
                        + "%d run(s) per point; %s%n", quick ? "quick" : "full", plan.latencySizes(), plan.throughputSizes(),
                plan.seconds(), plan.repeats(), pin.description());
        pw.flush();
        List<IwarpVsTcpExperiment.Point> points = new ArrayList<>(IwarpVsTcpExperiment.latency(plan, pin,
                p -> progress(pw, p)));
        points.addAll(IwarpVsTcpExperiment.throughput(plan, pin, notes, p -> progress(pw, p)));
        List<Path> files = IwarpVsTcpExperiment.write(dir, plan, points, quick ? "quick" : "full", notes);
        ExperimentData.printSummary(pw, dir, files.size());
        return 0;
    }

    private static void progress(PrintWriter pw, IwarpVsTcpExperiment.Point p) {
        if (p.part().equals("latency")) {
            pw.printf(Locale.ROOT, "  latency    %-11s %7d B: typical %9.2f us, p99 %9.2f us%n", p.stack(), p.size(),
                    p.typicalUs(), p.p99Us());
        } else {
            pw.printf(Locale.ROOT, "  throughput %-11s %7d B: %7.3f Gb/s; CPU %% sender %3.0f (soaker %3.0f), receiver "
                            + "%3.0f (soaker %3.0f)%n", p.stack(), p.size(), p.gbps(), p.clientThreadPct(),
                    p.clientSoakPct(), p.serverThreadPct(), p.serverSoakPct());
        }
        pw.flush();
    }
}
