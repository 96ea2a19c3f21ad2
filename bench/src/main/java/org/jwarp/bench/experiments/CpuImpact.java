package org.jwarp.bench.experiments;

import static org.jwarp.bench.experiments.Rows.f;
import static org.jwarp.bench.experiments.Rows.max;
import static org.jwarp.bench.experiments.Rows.median;
import static org.jwarp.bench.experiments.Rows.min;
import static org.jwarp.bench.experiments.Rows.size;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jwarp.bench.experiment.ApplicationCpu;

/** A server job's time while clients stream to it (seed 000, Fig. 7). */
final class CpuImpact extends SeedExperiment {

    /** The testbed its delay sweep brings up and down (not the user's default one). */
    private static final String TESTBED = "jwcpu";


    CpuImpact() {
        super("cpu-impact", "seed 000 Fig. 7: a server job's execution time while many clients stream to "
                + "it, RDMA WRITE vs sockets, by message size, and by WAN delay (testbed, root)",
                new Paper("CPU resource requirements (seed 000, Fig. 7)", "seed 000 Fig. 7",
                    "How much longer does a server application's CPU-bound job take while 40 clients stream data to the "
                            + "server, by RDMA WRITE against sockets, by message size and by WAN delay at 16 KB?",
                    "With background sockets traffic the job's execution time is much higher at every size and every "
                            + "delay; with background RDMA WRITEs it stays that of the job alone, since the RNIC places "
                            + "the data without the server's CPU."));
    }

    @Override
    public TableWords tableWords() {
        return TableWords.headers(Map.of("rx_mib_s", "received, MiB/s"));
    }

    @Override
    public List<String> help() {
        return List.of("Seed 000's Fig. 7: the execution time of a fixed CPU-bound job in a server application, alone "
                + "and while many clients stream messages to it, by RDMA WRITE (placed by jwarp's engine, the "
                + "application never involved) and by sockets (the application reads them); over the message size "
                + "(two processes on loopback), and at 16 KiB over the delay degen adds between the testbed's hosts "
                + "(needs root; skipped otherwise).",
                "Quick: 8 clients, 1, 16 and 256 KiB, delays 0, 2 and 10 ms at 16 KiB, a 0.4 s job, one run per point.");
    }

    @Override
    public List<ExperimentOption> options() {
        return List.of(ExperimentOption.WHERE, ExperimentOption.PLACEMENT, ExperimentOption.SIZES,
                ExperimentOption.one("--clients", "N", Integer.class, "Streaming clients instead of the mode's (the "
                        + "paper: 40)."),
                ExperimentOption.one("--job-ms", "MS", Double.class, "The job's length alone instead of the mode's."));
    }

    @Override
    public void run(ExperimentRun run) throws Exception {
        boolean pinned = run.pinned();
        CpuImpactExperiment.Plan base = run.quick() ? CpuImpactExperiment.Plan.quick(pinned)
                : CpuImpactExperiment.Plan.full(pinned);
        CpuImpactExperiment.Plan plan = new CpuImpactExperiment.Plan(run.check("--sizes", base.sizes(), 1, 1 << 24,
                "bytes"), base.delaysMs(), run.checkOne("--clients", base.clients(), 1, 256, "clients"),
                run.checkOne("--job-ms", base.jobMs(), 10, 60_000, "ms"), base.repeats(), pinned);
        List<String> notes = new ArrayList<>(List.of(ApplicationCpu.describe(pinned) + "; the server application is the "
                + "measured thread; the clients are one process on the same machine; jwarp devices with an engine thread "
                + "of their own that sleeps when idle"));
        List<CpuImpactExperiment.Point> points = ExperimentProcesses.sweep(run, notes, new ExperimentProcesses.Sweep<>(
                (hosts, d, progress) -> CpuImpactExperiment.sizes(plan, hosts, progress),
                (hosts, d, progress) -> CpuImpactExperiment.delay(plan, hosts, d, progress), TESTBED, plan.delaysMs(),
                "the clients on host A, the server on host B", CpuImpact::line), plan::points, delays -> f("jwarp "
                + "experiment cpu-impact (%s): %d clients, sizes %s%s, a %.0f ms job", run.mode(), plan.clients(),
                plan.sizes(), delays ? ", delays " + plan.delaysMs() + " ms at 16 KiB" : "", plan.jobMs()));
        Path dir = run.dir();
        ExperimentData.printSummary(run.out(), dir, CpuImpactExperiment.write(dir, plan, points, run.mode(), notes));
    }

    private static String line(CpuImpactExperiment.Point p) {
        return f("  %-5s %-7s %8d B  delay %5.1f ms: job %8.1f ms alone, %8.1f ms loaded (x%.2f), %8.1f MiB/s "
                + "received", p.part(), p.stack(), p.size(), p.delayMs(), p.aloneMs(), p.loadedMs(), p.slowdown(),
                p.rxMibS());
    }

    @Override
    public Verdict verdict(RunResult e) {
        Map<String, List<Double>> by = Rows.byKey(e, "slowdown", "part", "stack");
        List<Double> rdma = by.get("size|jwarp");
        List<Double> sockets = by.get("size|sockets");
        if (rdma == null || sockets == null) {
            return Verdict.none("the run lacks size points for both stacks.");
        }
        double r = median(rdma);
        double s = median(sockets);
        List<Double> rd = by.get("delay|jwarp");
        List<Double> sd = by.get("delay|sockets");
        Verdict.Outcome o = r < s && r < 1.1 ? Verdict.Outcome.REPRODUCED : r < s ? Verdict.Outcome.PARTLY
                : Verdict.Outcome.NOT;
        return new Verdict(o, f("the server job ×%.2f under RDMA WRITE streams, ×%.2f under sockets streams (median "
                + "over sizes)", r, s) + (rd == null ? Rows.NO_SWEEP : ""), f("The server job's slowdown under "
                + "background streams (median over sizes): ×%.2f with RDMA WRITE (%.2f to %.2f), ×%.2f with sockets (%.2f to %.2f)%s: %s", r, min(rdma), max(rdma),
                s, min(sockets), max(sockets), rd == null || sd == null ? "" : f("; with added delay ×%.2f against ×%.2f",
                median(rd), median(sd)), r < s ? "RDMA costs the server's application less CPU than sockets, as the "
                + "paper found" + (r < 1.1 ? " (the job nearly unaffected)." : "; the software engine still takes some "
                + "of it.") : "RDMA did not spare the server's application here."));
    }
}
