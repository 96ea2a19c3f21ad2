package org.jwarp.bench.experiments;

import static org.jwarp.bench.experiments.Rows.f;

import java.util.ArrayList;
import java.util.List;

/**
 * Whose a latency run's tail is: at the points whose 99th percentile is a millisecond or more, how
 * long the round trips stood still beyond their fastest (iterations × (average − minimum), both
 * ways) against how long the two sides' busy-polling threads waited runnable for a CPU in the
 * measured pass. A poller that has no CPU stands still until the scheduler gives it one (on a
 * machine with as many CPUs as pollers, a tick: 4 ms here), so when that wait covers the stall the
 * tail is the machine's, not the stack's.
 */
final class LatencyTail {

    /** A 99th percentile from which on a point counts as having a tail, µs. */
    private static final double TAIL_US = 1000;

    private LatencyTail() {
    }

    /** The sentence for the verdict, empty if the run has no tail or no CPU-wait column (an older run). */
    static String of(RunResult e) {
        if (!e.header().contains("poller_cpu_wait_ms")) {
            return "";
        }
        int transport = e.column("transport");
        int iterations = e.column("iterations");
        int min = e.column("min_us");
        int avg = e.column("avg_us");
        int p99 = e.column("p99_us");
        int wait = e.column("poller_cpu_wait_ms");
        List<String> each = new ArrayList<>();
        double stalled = 0;
        double waited = 0;
        for (String[] r : e.rows()) {
            if (r[p99].isEmpty() || r[wait].isEmpty() || Double.parseDouble(r[p99]) < TAIL_US) {
                continue;
            }
            double s = Long.parseLong(r[iterations]) * (Double.parseDouble(r[avg]) - Double.parseDouble(r[min])) * 2
                    / 1e3;
            stalled += s;
            waited += Double.parseDouble(r[wait]);
            each.add(r[transport]);
        }
        if (each.isEmpty()) {
            return "";
        }
        boolean machine = waited >= stalled / 2;
        return f(" The tail: %d point(s) (%s) have a p99 of 1 ms or more; their round trips stood still %.0f ms in all "
                + "beyond the fastest, and the two busy-polling threads waited %.0f ms runnable without a CPU, so the "
                + "tail is %s.", each.size(), String.join(", ", each.stream().distinct().toList()), stalled, waited,
                machine ? "the machine's (CPU contention: a poller that loses its CPU waits for the scheduler), not "
                        + "jwarp's" : "not explained by CPU contention: look at the stack");
    }
}
