package org.jwarp.bench.experiments;

import static org.jwarp.bench.experiments.Rows.f;
import static org.jwarp.bench.experiments.Rows.min;
import static org.jwarp.bench.experiments.Rows.size;
import static org.jwarp.bench.experiments.Rows.trim;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Eager SEND against WRITE- and READ-based rendezvous (seed 000, Fig. 9). */
final class Rendezvous extends SeedExperiment {

    /** The testbed its delay sweep brings up and down (not the user's default one). */
    private static final String TESTBED = "jwrndv";


    Rendezvous() {
        super("rendezvous", "seed 000 Fig. 9: eager SEND vs WRITE- and READ-based rendezvous; message "
                + "latency and the receiver's CPU by size, and by WAN delay (testbed, root)",
                new Paper("Rendezvous protocols (seed 000, Fig. 9)", "seed 000 Fig. 9",
                    "What does exchanging buffer addresses for every message cost, against copying through pre-posted "
                            + "receive buffers: eager SEND, WRITE-based and READ-based rendezvous, by message size and "
                            + "by WAN delay, in latency and in the receiver's CPU?",
                    "Rendezvous avoids the copies, so it wins for large messages on a fast link; its control messages "
                            + "add round trips, so on a high-delay link it loses to eager copying unless messages are "
                            + "very large. The paper draws the protocols (Fig. 9) and argues the trade-off, without "
                            + "numbers."));
    }

    @Override
    public TableWords tableWords() {
        return TableWords.headers(Map.of("server_app_us", "receiver's application CPU, µs/message", "server_engine_us",
                "receiver's engine CPU, µs/message"));
    }

    @Override
    public List<String> help() {
        return List.of("Seed 000's Fig. 9: moving a message into a receiver's buffer by eager SENDs (copies through "
                + "pre-posted receive buffers) against WRITE-based and READ-based rendezvous (an address exchange per "
                + "message); the message latency and the receiver's CPU per message, by size (two processes on "
                + "loopback), and at 64 KiB by the delay degen adds between the testbed's hosts (needs root; skipped "
                + "otherwise).",
                "Quick: sizes 1, 16, 256 and 1024 KiB, delays 0, 2 and 10 ms, 100 messages per point, one run.");
    }

    @Override
    public List<ExperimentOption> options() {
        return List.of(ExperimentOption.WHERE, ExperimentOption.REPEATS, ExperimentOption.SIZES,
                ExperimentOption.one("--messages", "N", Integer.class, "Messages per point instead of the mode's."));
    }

    @Override
    public void run(ExperimentRun run) throws Exception {
        RendezvousExperiment.Plan base = run.quick() ? RendezvousExperiment.Plan.quick()
                : RendezvousExperiment.Plan.full();
        int n = run.range("--messages", base.messages(), 1, 1_000_000);
        RendezvousExperiment.Plan plan = new RendezvousExperiment.Plan(run.sizes("--sizes", base.sizes()),
                base.delaysMs(), run.repeats(base.repeats()), n, Math.min(base.warmup(), n));
        List<String> notes = new ArrayList<>(List.of(Runtime.getRuntime().availableProcessors() + " CPUs; no pinning; "
                + "each side's device has an engine thread of its own that sleeps in its selector when idle; both "
                + "applications sleep on completion events"));
        List<RendezvousExperiment.Point> points = ExperimentProcesses.sweep(run, notes, new ExperimentProcesses.Sweep<>(
                (hosts, d, progress) -> RendezvousExperiment.sizes(plan, hosts, progress),
                (hosts, d, progress) -> RendezvousExperiment.delay(plan, hosts, d, progress), TESTBED, plan.delaysMs(),
                "64 KiB messages between hosts A and B", Rendezvous::line), plan::points, delays -> f("jwarp experiment "
                + "rendezvous (%s): sizes %s%s, %d messages per point, %d run(s)", run.mode(), plan.sizes(), delays
                ? ", delays " + plan.delaysMs() + " ms at 64 KiB" : "", plan.messages(), plan.repeats()));
        Path dir = run.dir();
        ExperimentData.printSummary(run.out(), dir, RendezvousExperiment.write(dir, plan, points, run.mode(), notes));
    }

    private static String line(RendezvousExperiment.Point p) {
        return f("  %-5s %-5s %8d B  delay %5.1f ms: median %10.1f us, p99 %10.1f us; receiver CPU/msg app %7.1f us, "
                + "engine %7.1f us", p.part(), p.protocol(), p.size(), p.delayMs(), p.medianUs(), p.p99Us(),
                p.serverAppUs(), p.serverEngineUs());
    }

    @Override
    public Verdict verdict(RunResult e) {
        Map<String, Double> lat = Rows.part(e, "size", List.of("size", "protocol"), "median_us");
        Map<String, Double> cpu = Rows.part(e, "size", List.of("size", "protocol"), "server_app_us");
        Map<String, Double> del = Rows.part(e, "delay", List.of("delay_ms", "protocol"), "median_us");
        StringBuilder sizes = new StringBuilder();
        String largest = null;
        for (String k : lat.keySet()) {
            String s = k.split("\\|")[0];
            if (k.endsWith("|eager") && lat.containsKey(s + "|write") && lat.containsKey(s + "|read")) {
                largest = s;
                sizes.append(f("%s %.0f / %.0f / %.0f µs (receiver's application CPU %.1f / %.1f / %.1f µs); ", size(s),
                        lat.get(k), lat.get(s + "|write"), lat.get(s + "|read"), cpu.getOrDefault(s + "|eager", Double.NaN),
                        cpu.getOrDefault(s + "|write", Double.NaN), cpu.getOrDefault(s + "|read", Double.NaN)));
            }
        }
        if (largest == null) {
            return Verdict.none("the run has no size with all three protocols.");
        }
        double eager = lat.get(largest + "|eager");
        double rndz = Math.min(lat.get(largest + "|write"), lat.get(largest + "|read"));
        StringBuilder delays = new StringBuilder();
        double lastRatio = Double.NaN;
        String lastDelay = null;
        for (String k : del.keySet()) {
            String d = k.split("\\|")[0];
            if (k.endsWith("|eager") && del.containsKey(d + "|write") && del.containsKey(d + "|read")) {
                lastRatio = Math.min(del.get(d + "|write"), del.get(d + "|read")) / del.get(k);
                lastDelay = d;
                delays.append(f("%s ms: %.1f / %.1f / %.1f ms, rendezvous / eager %.2f; ", trim(d), del.get(k) / 1000,
                        del.get(d + "|write") / 1000, del.get(d + "|read") / 1000, lastRatio));
            }
        }
        boolean large = rndz < eager;
        String headline = f("at %s rendezvous %.0f µs against eager %.0f µs", size(largest), rndz, eager)
                + (lastDelay == null ? Rows.NO_SWEEP : f("; at %s ms of delay rendezvous %.2f× eager", trim(lastDelay),
                lastRatio));
        return new Verdict(Verdict.of((large ? 1 : 0) + (lastDelay != null && lastRatio > 1 ? 1 : 0),
                lastDelay == null ? 1 : 2), headline, "Message latency, eager / WRITE rendezvous / READ rendezvous, by "
                + "size: " + sizes + (large ? "rendezvous wins the largest size, as the paper argues. " : "rendezvous "
                + "does not win the largest size here. ") + (lastDelay == null ? "No delay sweep in this run."
                : "By added delay at 64 KiB: " + delays + (lastRatio > 1 ? "the address exchange's extra round trips "
                + "dominate as the delay grows, as the paper argues." : "rendezvous is not behind at the largest delay.")));
    }
}
