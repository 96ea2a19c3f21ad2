package org.jwarp.bench.experiments;

import static org.jwarp.bench.experiments.Rows.f;
import static org.jwarp.bench.experiments.Rows.max;
import static org.jwarp.bench.experiments.Rows.min;
import static org.jwarp.bench.experiments.Rows.trim;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Communication progress: fetching from a busy process (seed 000, Fig. 4b and 6). */
final class Progress extends SeedExperiment {

    /** The testbed its delay sweep brings up and down (not the user's default one). */
    private static final String TESTBED = "jwprog";


    Progress() {
        super("progress", "seed 000 Fig. 4b and 6: fetching 1 KiB from a busy process, RDMA READ vs "
                + "sockets, by remote load, and by WAN delay (testbed, root)",
                new Paper("Communication progress (seed 000, Fig. 4b and Fig. 6)", "seed 000 Fig. 4b, 6",
                    "How long does fetching 1 KiB from a remote process take when that process is busy computing: RDMA "
                            + "READ against a sockets request and response?",
                    "RDMA READ stays flat whatever the remote load, since no remote process takes part; the sockets "
                            + "fetch grows with the load. With large WAN delay the delay dominates both, RDMA still "
                            + "ahead."));
    }

    @Override
    public TableWords tableWords() {
        return TableWords.parts(Map.of("load", "By remote load"));
    }

    @Override
    public List<String> help() {
        return List.of("Seed 000's Fig. 4b and 6: the latency to fetch 1 KiB from a process busy in a dummy loop, by "
                + "RDMA READ and by a sockets request/response, over the remote load (two processes on loopback), and at "
                + "16 ms of load over the delay degen adds between the testbed's hosts (needs root; skipped otherwise).",
                "Quick: loads 0, 1, 4 and 16 ms, delays 0, 2 and 10 ms, 40 fetches, one run per point.");
    }

    @Override
    public List<ExperimentOption> options() {
        return List.of(ExperimentOption.WHERE, ExperimentOption.list("--loads", "MS,...", Double.class,
                "Remote loads instead of the mode's."));
    }

    @Override
    public void run(ExperimentRun run) throws Exception {
        ProgressExperiment.Plan base = run.quick() ? ProgressExperiment.Plan.quick() : ProgressExperiment.Plan.full();
        ProgressExperiment.Plan plan = new ProgressExperiment.Plan(run.check("--loads", base.loadsMs(), 0, 1000, "ms"),
                base.delaysMs(), base.repeats(), base.fetches());
        List<String> notes = new ArrayList<>(List.of(Runtime.getRuntime().availableProcessors() + " CPUs; no pinning; "
                + "jwarp in its default threading mode (on 2 CPUs: hybrid, so the busy server's READs are served by its "
                + "standby engine thread)"));
        List<ProgressExperiment.Point> points = ExperimentProcesses.sweep(run, notes, new ExperimentProcesses.Sweep<>(
                (hosts, d, progress) -> ProgressExperiment.loads(plan, hosts, progress),
                (hosts, d, progress) -> ProgressExperiment.delay(plan, hosts, d, progress), TESTBED, plan.delaysMs(),
                "hosts A and B, 16 ms of remote load,", Progress::line), plan::points, delays -> f("jwarp experiment "
                + "progress (%s): loads %s ms%s, %d fetches of 1 KiB per point", run.mode(), plan.loadsMs(), delays
                ? ", delays " + plan.delaysMs() + " ms at 16 ms of load" : "", plan.fetches()));
        Path dir = run.dir();
        ExperimentData.printSummary(run.out(), dir, ProgressExperiment.write(dir, plan, points, run.mode(), notes));
    }

    private static String line(ProgressExperiment.Point p) {
        return f("  %-5s %-8s load %5.1f ms  delay %5.1f ms: median %10.1f us, p99 %10.1f us", p.part(), p.stack(),
                p.loadMs(), p.delayMs(), p.medianUs(), p.p99Us());
    }

    @Override
    public Verdict verdict(RunResult e) {
        Map<String, Double> load = Rows.part(e, "load", List.of("load_ms", "stack"), "median_us");
        double lo = Double.NaN;
        double hi = Double.NaN;
        for (String k : load.keySet()) {
            double l = Double.parseDouble(k.split("\\|")[0]);
            lo = Double.isNaN(lo) ? l : Math.min(lo, l);
            hi = Double.isNaN(hi) ? l : Math.max(hi, l);
        }
        Double r0 = find(load, lo, "jwarp");
        Double r1 = find(load, hi, "jwarp");
        Double s0 = find(load, lo, "sockets");
        Double s1 = find(load, hi, "sockets");
        if (r0 == null || r1 == null || s0 == null || s1 == null || !(hi > lo)) {
            return Verdict.none("the run lacks two remote loads for both stacks.");
        }
        boolean flat = r1 - r0 < (s1 - s0) / 4;
        Map<String, Double> delay = Rows.part(e, "delay", List.of("delay_ms", "stack"), "median_us");
        StringBuilder delays = new StringBuilder();
        int ahead = 0;
        int delayed = 0;
        for (Map.Entry<String, Double> x : delay.entrySet()) {
            String d = x.getKey().split("\\|")[0];
            Double so = delay.get(d + "|sockets");
            if (x.getKey().endsWith("|jwarp") && so != null) {
                delayed++;
                ahead += x.getValue() < so ? 1 : 0;
                delays.append(f("%s ms %.0f / %.0f µs; ", trim(d), x.getValue(), so));
            }
        }
        String headline = f("READ fetch %.0f → %.0f µs from %s to %s ms of remote load; sockets %.0f → %.0f µs", r0, r1,
                trim(f("%.3f", lo)), trim(f("%.3f", hi)), s0, s1) + (delayed == 0 ? Rows.NO_SWEEP : "");
        return new Verdict(Verdict.of((flat ? 1 : 0) + (delayed > 0 && ahead == delayed ? 1 : 0), delayed > 0 ? 2 : 1),
                headline, headline + ": " + (flat ? "READ stays flat while sockets grow with the load, as the paper "
                + "found" : "READ did not stay flat against sockets here") + (delayed == 0 ? "." : f(". With added delay "
                + "at the busy server (READ / sockets): %sREAD ahead at %d of %d delays.", delays, ahead, delayed)));
    }

    private static Double find(Map<String, Double> m, double load, String stack) {
        for (Map.Entry<String, Double> x : m.entrySet()) {
            String[] k = x.getKey().split("\\|");
            if (Double.parseDouble(k[0]) == load && k[1].equals(stack)) {
                return x.getValue();
            }
        }
        return null;
    }
}
