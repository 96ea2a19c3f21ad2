package org.jwarp.bench.experiments;

import static org.jwarp.bench.experiments.Rows.f;
import static org.jwarp.bench.experiments.Rows.median;
import static org.jwarp.bench.experiments.Rows.size;
import static org.jwarp.bench.experiments.Rows.trim;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.jwarp.bench.experiment.ApplicationCpu;

/** Computation and communication overlap (seed 000, Fig. 4a and 5). */
final class Overlap extends SeedExperiment {

    /** The testbed its delay sweep brings up and down (not the user's default one). */
    private static final String TESTBED = "jwovl";


    Overlap() {
        super("overlap", "seed 000 Fig. 4a and 5: computation overlapping a ping-pong, RDMA WRITE vs "
                + "non-blocking sockets, by computation time, and by WAN delay (testbed, root)",
                new Paper("Computation and communication overlap (seed 000, Fig. 4a and Fig. 5)",
                    "seed 000 Fig. 4a, 5",
                    "How much of a client's time is computation when it starts a ping-pong, computes, then finishes it: "
                            + "RDMA WRITE against non-blocking sockets, by computation time and by WAN delay?",
                    "RDMA reaches a high overlap ratio already at small computation times, sockets later: part of the "
                            + "sockets' work (copies, the rest of the message) runs in the application after its "
                            + "computation. At 242 ms of computation the gap narrows as the WAN delay grows, RDMA still "
                            + "ahead at a few ms."));
    }

    @Override
    public TableWords tableWords() {
        return new TableWords(Map.of("roundtrip_us", "round trip, µs"), Map.of("compute", "By computation time"), Set.of());
    }

    @Override
    public List<String> help() {
        return List.of("Seed 000's Fig. 4a and 5: a client starts a ping-pong, computes for C ms, then finishes it; "
                + "overlap = computation / total time, by RDMA WRITE and by non-blocking sockets, over the computation "
                + "time (two processes on loopback), and at the paper's 242 ms of computation over the delay degen adds "
                + "between the testbed's hosts (needs root; skipped otherwise).",
                "Quick: 1 KiB (the paper's) and 1 MiB, computation 0.1 to 64 ms, delays 0, 2 and 10 ms at 242 ms, one "
                        + "run per point.");
    }

    @Override
    public List<ExperimentOption> options() {
        return List.of(ExperimentOption.WHERE, ExperimentOption.PLACEMENT, ExperimentOption.SIZES,
                ExperimentOption.list("--computes", "MS,...", Double.class, "Computation times instead of the mode's."),
                ExperimentOption.one("--delay-compute", "MS", Double.class, "Computation time of the delay sweep "
                        + "instead of the paper's 242 ms."));
    }

    @Override
    public void run(ExperimentRun run) throws Exception {
        boolean pinned = run.pinned();
        OverlapExperiment.Plan base = run.quick() ? OverlapExperiment.Plan.quick(pinned)
                : OverlapExperiment.Plan.full(pinned);
        OverlapExperiment.Plan plan = new OverlapExperiment.Plan(run.check("--sizes", base.sizes(), 1, 1 << 26, "bytes"),
                run.check("--computes", base.computesMs(), 0.01, 10_000, "ms"), base.delaysMs(),
                run.checkOne("--delay-compute", base.delayComputeMs(), 0.01, 10_000, "ms"), base.repeats(),
                base.seconds(), base.delayIterations(), pinned);
        List<String> notes = new ArrayList<>(List.of(ApplicationCpu.describe(pinned) + "; jwarp devices with an engine "
                + "thread of their own that sleeps when idle"));
        List<OverlapExperiment.Point> points = ExperimentProcesses.sweep(run, notes, new ExperimentProcesses.Sweep<>(
                (hosts, d, progress) -> OverlapExperiment.computes(plan, hosts, progress),
                (hosts, d, progress) -> OverlapExperiment.delay(plan, hosts, d, progress), TESTBED, plan.delaysMs(),
                "the client on host A, the server on host B", Overlap::line), plan::points, delays -> f("jwarp "
                + "experiment overlap (%s): sizes %s, computation %s ms%s", run.mode(), plan.sizes(), plan.computesMs(),
                delays ? f(", delays %s ms at %.0f ms", plan.delaysMs(), plan.delayComputeMs()) : ""));
        Path dir = run.dir();
        ExperimentData.printSummary(run.out(), dir, OverlapExperiment.write(dir, plan, points, run.mode(), notes));
    }

    private static String line(OverlapExperiment.Point p) {
        return f("  %-7s %-7s %8d B  compute %7.2f ms  delay %5.1f ms: overlap %.3f (total %9.1f us, round trip alone "
                + "%8.1f us)", p.part(), p.stack(), p.size(), p.computeMs(), p.delayMs(), p.overlap(), p.totalUs(),
                p.roundTripUs());
    }

    @Override
    public Verdict verdict(RunResult e) {
        Map<String, List<Double>> by = Rows.byKey(e, "overlap", "part", "size", "compute_ms", "delay_ms", "stack");
        StringBuilder delays = new StringBuilder();
        List<String> behind = new ArrayList<>();
        int ahead = 0;
        int total = 0;
        for (String k : by.keySet()) {
            String other = k.replaceFirst("\\|jwarp$", "|sockets");
            if (!k.endsWith("|jwarp") || !by.containsKey(other)) {
                continue;
            }
            String[] p = k.split("\\|");
            double r = median(by.get(k));
            double s = median(by.get(other));
            if (p[0].equals("compute")) {
                total++;
                if (r >= s - 0.005) {
                    ahead++;
                } else {
                    behind.add(f("%s at %s ms %.3f / %.3f", size(p[1]), trim(p[2]), r, s));
                }
            } else {
                delays.append(f("%s at %s ms: %.3f / %.3f; ", size(p[1]), trim(p[3]), r, s));
            }
        }
        if (total == 0) {
            return Verdict.none("the run has no computation-time points for both stacks.");
        }
        Verdict.Outcome o = ahead == total ? Verdict.Outcome.REPRODUCED : ahead * 2 >= total ? Verdict.Outcome.PARTLY
                : Verdict.Outcome.NOT;
        return new Verdict(o, f("RDMA WRITE's overlap at or above sockets' at %d of %d (size, computation) points",
                ahead, total) + (delays.isEmpty() ? Rows.NO_SWEEP : ""), f("Overlap ratio, RDMA WRITE against "
                + "sockets: at or above sockets at %d of %d points", ahead, total) + (behind.isEmpty() ? "" : "; behind (RDMA / sockets) at " + String.join(", ", behind))
                + (delays.isEmpty() ? "." : ". With added delay (RDMA / sockets): " + delays
                + "the delay is overlapped by both."));
    }
}
