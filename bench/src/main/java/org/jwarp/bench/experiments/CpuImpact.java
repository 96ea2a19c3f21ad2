package org.jwarp.bench.experiments;

import static org.jwarp.bench.experiments.Rows.f;
import static org.jwarp.bench.experiments.Rows.max;
import static org.jwarp.bench.experiments.Rows.median;
import static org.jwarp.bench.experiments.Rows.min;
import static org.jwarp.bench.experiments.Rows.size;

import java.util.List;
import java.util.Map;

/** A server job's time while clients stream to it (seed 000, Fig. 7). */
final class CpuImpact extends SeedExperiment {

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
