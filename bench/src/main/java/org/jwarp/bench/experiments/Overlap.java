package org.jwarp.bench.experiments;

import static org.jwarp.bench.experiments.Rows.f;
import static org.jwarp.bench.experiments.Rows.median;
import static org.jwarp.bench.experiments.Rows.size;
import static org.jwarp.bench.experiments.Rows.trim;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Computation and communication overlap (seed 000, Fig. 4a and 5). */
final class Overlap extends SeedExperiment {

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
