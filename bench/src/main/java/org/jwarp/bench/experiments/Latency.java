package org.jwarp.bench.experiments;

import static org.jwarp.bench.experiments.Rows.f;
import static org.jwarp.bench.experiments.Rows.max;
import static org.jwarp.bench.experiments.Rows.min;
import static org.jwarp.bench.experiments.Rows.size;
import static org.jwarp.bench.experiments.Rows.trim;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** One-way latency, RDMA WRITE against sockets (seed 000, Fig. 3 and 8). */
final class Latency extends SeedExperiment {

    /** The largest of the "small messages" the paper speaks of, bytes. */
    private static final double SMALL = 1024;

    /** The testbed its delay sweep brings up and down (not the user's default one). */
    private static final String TESTBED = "jwlat";

    Latency() {
        super("latency", "seed 000 Fig. 3 and 8: RDMA WRITE vs sockets one-way latency by size, and by "
                + "WAN delay (testbed, root)",
                new Paper("Latency (seed 000, Fig. 3 and Fig. 8)", "seed 000 Fig. 3, 8",
                    "What one-way latency does RDMA WRITE give against TCP sockets, by message size on a LAN, and how "
                            + "does a WAN delay change the comparison?",
                    "On the LAN RDMA's latency is well below sockets' for small messages and the gap narrows as "
                            + "messages grow; with emulated WAN delay both curves follow the delay, which dominates."));
    }

    @Override
    public TableWords tableWords() {
        return TableWords.headers(Map.of("poller_cpu_wait_ms", "pollers' wait for a CPU, ms"));
    }

    @Override
    public List<String> help() {
        return List.of("Seed 000's Fig. 3 and Fig. 8: one-way latency of an RDMA WRITE ping-pong against a TCP sockets "
                + "ping-pong, by message size with no added delay (two processes on loopback), and at 1 KiB by the "
                + "one-way delay degen adds between the testbed's two hosts (needs root; skipped otherwise).",
                "Quick: 5 sizes, delays 0, 2 and 10 ms, one run per point.");
    }

    @Override
    public List<ExperimentOption> options() {
        return List.of(ExperimentOption.WHERE, ExperimentOption.REPEATS, ExperimentOption.SIZES);
    }

    @Override
    public void run(ExperimentRun run) throws Exception {
        LatencyExperiment.Plan base = run.quick() ? LatencyExperiment.Plan.quick() : LatencyExperiment.Plan.full();
        LatencyExperiment.Plan plan = new LatencyExperiment.Plan(run.sizes("--sizes", base.sizes()), base.delaysMs(),
                run.repeats(base.repeats()), base.iterations());
        List<String> notes = new ArrayList<>(List.of(Runtime.getRuntime().availableProcessors() + " CPUs; no pinning: "
                + "each process's threads go where the kernel puts them; jwarp in its default threading mode"));
        List<LatencyExperiment.Point> points = ExperimentProcesses.sweep(run, notes, new ExperimentProcesses.Sweep<>(
                (hosts, d, progress) -> LatencyExperiment.sizes(run.jwarp(), plan, hosts, progress),
                (hosts, d, progress) -> LatencyExperiment.delay(run.jwarp(), plan, hosts, d, progress), TESTBED,
                plan.delaysMs(), "hosts A and B", Latency::line), plan::points, delays -> f("jwarp experiment latency "
                + "(%s): sizes %s%s, %d run(s) per point", run.mode(), plan.sizes(), delays ? ", delays "
                + plan.delaysMs() + " ms at 1 KiB" : "", plan.repeats()));
        Path dir = run.dir();
        ExperimentData.printSummary(run.out(), dir, LatencyExperiment.write(dir, plan, points, run.mode(), notes));
    }

    private static String line(LatencyExperiment.Point p) {
        return f("  %-5s %-16s %6d B  delay %5.1f ms: typical %9.2f us, p99 %9.2f us", p.part(), p.transport(),
                p.size(), p.delayMs(), p.typicalUs(), p.p99Us());
    }

    @Override
    public Verdict verdict(RunResult e) {
        Map<String, Double> size = Rows.part(e, "size", List.of("size", "transport"), "typical_us");
        Map<String, Double> delay = Rows.part(e, "delay", List.of("delay_ms", "transport"), "typical_us");
        List<Double> ratios = new ArrayList<>();
        StringBuilder sizes = new StringBuilder();
        int below = 0;
        List<String> header = new ArrayList<>(List.of("one-way latency, RDMA / sockets"));
        List<String> paper = new ArrayList<>(List.of("paper: small messages on the LAN (Fig. 8, \"differs by almost "
                + "50 %\")"));
        List<String> ours = new ArrayList<>(List.of("ours: jwarp / busy-polling sockets"));
        for (Map.Entry<String, Double> x : size.entrySet()) {
            String s = x.getKey().split("\\|")[0];
            Double so = size.get(s + "|sockets-busypoll");
            if (x.getKey().endsWith("|jwarp") && so != null) {
                ratios.add(x.getValue() / so);
                below += x.getValue() < so ? 1 : 0;
                sizes.append(f("%s %.2f; ", size(s), x.getValue() / so));
                header.add(size(s));
                paper.add(Double.parseDouble(s) <= SMALL ? "about 0.5" : "");
                ours.add(Rows.number(x.getValue() / so));
            }
        }
        if (ratios.isEmpty()) {
            return Verdict.none("the run has no size measured over both jwarp and sockets.");
        }
        List<Double> delayRatios = new ArrayList<>();
        StringBuilder delays = new StringBuilder();
        boolean follow = true;
        for (Map.Entry<String, Double> x : delay.entrySet()) {
            String d = x.getKey().split("\\|")[0];
            Double so = delay.get(d + "|sockets-busypoll");
            if (x.getKey().endsWith("|jwarp") && so != null) {
                double ms = Double.parseDouble(d);
                delayRatios.add(x.getValue() / so);
                follow &= x.getValue() >= ms * 1000 && so >= ms * 1000 && x.getValue() / so < 1.1;
                delays.append(f("%s ms: %.0f / %.0f µs; ", trim(d), x.getValue(), so));
            }
        }
        int held = (below == ratios.size() ? 1 : 0) + (!delayRatios.isEmpty() && follow ? 1 : 0);
        String headline = f("jwarp %.2f-%.2f× sockets' one-way latency by size (the paper: RDMA below sockets)",
                min(ratios), max(ratios)) + (delayRatios.isEmpty() ? Rows.NO_SWEEP
                : f("; with delay %.2f-%.2f×, both following the delay", min(delayRatios), max(delayRatios)));
        return new Verdict(Verdict.of(held, delayRatios.isEmpty() ? 1 : 2), headline, "Typical one-way latency, jwarp "
                + "/ busy-polling sockets, by size: " + sizes + below + " of " + ratios.size() + " sizes below sockets"
                + (delayRatios.isEmpty() ? " (no delay sweep in this run)." : ". With added delay (jwarp / sockets): "
                + delays + (follow ? "both follow the delay, as in the paper." : "they do not both follow the delay."))
                + LatencyTail.of(e)).withComparison(header, List.of(paper, ours));
    }
}
