package org.jwarp.bench.experiments;

import static org.jwarp.bench.experiments.Rows.f;
import static org.jwarp.bench.experiments.Rows.medians;
import static org.jwarp.bench.experiments.Rows.size;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.jwarp.bench.experiment.ToeExperiment;
import org.jwarp.bench.experiment.ToeReport;
import org.jwarp.degen.LinkParams;
import org.jwarp.degen.RouterTuning;
import org.jwarp.degen.testbed.Emulator;
import org.jwarp.degen.testbed.Testbed;
import org.jwarp.degen.testbed.TestbedException;
import org.jwarp.degen.testbed.Topology;

/** Offloaded sockets against Java sockets, host CPU per Gb/s (seed 001, Tables I and II, set beside ours). */
final class Toe extends SeedExperiment {

    /** The testbed this experiment brings up and down (not the user's default one). */
    private static final String TESTBED = "jwtoe";


    /** Seed 001, Table II (TOE) and Table I (Solaris TCP), % of one CPU per Gb/s: send 128, 8 KB, receive 128, 8 KB. */
    private static final double[] PAPER_TOE = {11, 14, 12, 24};
    private static final double[] PAPER_TCP = {81, 81, 134, 134};
    private static final int[] CHUNKS = {131072, 8192};

    Toe() {
        super("toe", "seed 001 Tables I-II: a one-way stream in 8 KiB and 128 KiB chunks through the "
                + "offloaded sockets and through Java sockets; throughput and host CPU per Gb/s, "
                + "each side",
                new Paper("Offloaded sockets (seed 001, Tables I and II)", "seed 001 Tables I, II",
                    "How much host CPU does a TCP offload engine save, as % of one CPU per Gb/s, sending and receiving, "
                            + "when the host passes data in 8 KB and 128 KB chunks?",
                    "Solaris TCP took 81 % of one CPU per Gb/s sending and 134 % receiving; the emulated TOE 11 % / 12 % "
                            + "with 128 KB chunks and 14 % / 24 % with 8 KB: 7 to 10 times less, and the receive side "
                            + "gains less with small chunks (one interrupt per chunk)."));
    }

    @Override
    public TableWords tableWords() {
        return new TableWords(Map.of("host_pct_cpu_per_gbps", "host, % of a CPU per Gb/s", "engine_pct_cpu_per_gbps",
                "engine, % of a CPU per Gb/s", "host_cpu_s", "host CPU, s", "engine_cpu_s", "engine CPU, s"), Map.of(),
                Set.of("chunk"));
    }

    @Override
    public List<String> help() {
        return List.of("Seed 001's Tables I and II: a one-way stream, the host passing data in 8 KiB and 128 KiB chunks, "
                + "through jwarp's offloaded sockets (each side's host on one CPU, its engine thread on the other) "
                + "and through Java sockets (each side on one CPU); throughput and host CPU as %% of one CPU per Gb/s, "
                + "sending and receiving, beside the paper's.",
                "Places: loopback (two processes), and the testbed (hosts A and B in network namespaces joined by a "
                        + "veth pair, no added delay, MTU 1500), which needs root.",
                "Quick: one 1.5 s run per point.");
    }

    @Override
    public List<ExperimentOption> options() {
        return List.of(ExperimentOption.REPEATS,
                new ExperimentOption("--where", "PLACE", String.class, null, "auto", "loopback, testbed, both, or "
                        + "auto: loopback, and the testbed too when running as root (default: ${DEFAULT-VALUE})."),
                ExperimentOption.one("--seconds", "S", Double.class, "Seconds per run instead of the mode's."));
    }

    @Override
    public void run(ExperimentRun run) throws Exception {
        ToeExperiment.Plan base = run.quick() ? ToeExperiment.Plan.quick() : ToeExperiment.Plan.full();
        ToeExperiment.Plan plan = new ToeExperiment.Plan(base.chunks(), run.range("--seconds", base.seconds(), 0.2,
                600), run.repeats(base.repeats()));
        List<String> notes = new ArrayList<>();
        notes.add(Runtime.getRuntime().availableProcessors() + " CPUs: sender host CPU " + ToeExperiment.SENDER_HOST_CPU
                + ", sender engine CPU " + ToeExperiment.SENDER_ENGINE_CPU + ", receiver host CPU "
                + ToeExperiment.RECEIVER_HOST_CPU + ", receiver engine CPU " + ToeExperiment.RECEIVER_ENGINE_CPU);
        String where = run.option("--where");
        boolean testbed = switch (where.toLowerCase(Locale.ROOT)) {
            case "loopback" -> false;
            case "testbed", "both" -> true;
            case "auto" -> ExperimentRun.testbedPossible(notes, "testbed");
            default -> throw run.bad("--where takes loopback, testbed, both or auto, not '" + where + "'");
        };
        List<ToeExperiment.Where> places = new ArrayList<>();
        if (!where.equalsIgnoreCase("testbed")) {
            places.add(ToeExperiment.Where.loopback());
        }
        Testbed tb = null;
        if (testbed) {
            try {
                Testbed.requireCapable();
            } catch (TestbedException e) {
                throw run.bad("the testbed needs root: " + e.getMessage() + " (or use --where loopback)");
            }
            tb = new Testbed(TESTBED);
            Topology t = tb.topologyFor(1500, 1500);
            run.out().println(tb.up(Emulator.TBF, tb.config(LinkParams.passThrough(), LinkParams.passThrough(), 1500,
                    1500, RouterTuning.DEFAULT, 1), null).lines().findFirst().orElse(""));
            places.add(new ToeExperiment.Where("testbed", "hosts A and B in network namespaces " + t.nsA() + " and "
                    + t.nsB() + ", a veth pair, no added delay, MTU 1500", List.of("ip", "netns", "exec", t.nsA()),
                    List.of("ip", "netns", "exec", t.nsB()), t.addressOf("B"), t.addressOf("B")));
        }
        Path dir = run.dir();
        int total = places.size() * plan.repeats() * plan.chunks().size() * 2;
        run.out().printf(Locale.ROOT, "jwarp experiment toe (%s): %s, chunks %s, %.1f s per run, %d run(s) per point; "
                + "%d runs%n", run.mode(), places.stream().map(ToeExperiment.Where::name).toList(), plan.chunks(),
                plan.seconds(), plan.repeats(), total);
        run.out().flush();
        List<ToeExperiment.Run> runs;
        try (ExperimentProgress bar = new ExperimentProgress(run.out(), total)) {
            runs = ToeExperiment.run(plan, places, r -> bar.point(f("  %-8s %-7s %6d B chunks: %.2f Gb/s, host "
                    + "%%CPU/Gb/s send %.1f receive %.1f", r.where(), r.sender().stack(), r.sender().chunk(),
                    r.receiver().gbps(), r.sender().hostPercentPerGbps(), r.receiver().hostPercentPerGbps())));
        } finally {
            if (tb != null) {
                try {
                    tb.down();
                } catch (IOException e) {
                    run.out().println("taking the testbed down failed: " + e.getMessage());
                }
            }
        }
        run.out().println();
        for (ToeExperiment.Where w : places) {
            run.out().println(ToeReport.table(runs, w, plan.chunks()));
        }
        List<Path> files = ToeReport.write(dir, plan, places, runs, run.mode(), notes);
        run.out().println("wrote " + files.size() + " files to " + dir);
        run.out().flush();
    }

    @Override
    public Verdict verdict(RunResult e) {
        Map<String, Double> cpu = medians(e, List.of("where", "side", "chunk", "stack"), "host_pct_cpu_per_gbps");
        List<String> header = List.of("% of one CPU per Gb/s", "send 128 KiB", "send 8 KiB", "receive 128 KiB",
                "receive 8 KiB");
        List<List<String>> rows = new ArrayList<>();
        rows.add(row("paper: emulated TOE (Table II)", PAPER_TOE));
        rows.add(row("paper: Solaris TCP (Table I)", PAPER_TCP));
        double[] paperRatio = new double[4];
        for (int i = 0; i < 4; i++) {
            paperRatio[i] = PAPER_TOE[i] / PAPER_TCP[i];
        }
        rows.add(row("paper: TOE / TCP", paperRatio));
        StringBuilder text = new StringBuilder();
        int lower = 0;
        int total = 0;
        int sendLower = 0;
        for (String where : List.of("loopback", "testbed")) {
            double[] toe = new double[4];
            double[] sockets = new double[4];
            double[] ratio = new double[4];
            boolean any = false;
            for (int i = 0; i < 4; i++) {
                String role = i < 2 ? "sender" : "receiver";
                String key = where + "|" + role + "|" + CHUNKS[i % 2] + "|";
                toe[i] = cpu.getOrDefault(key + "toe", Double.NaN);
                sockets[i] = cpu.getOrDefault(key + "sockets", Double.NaN);
                ratio[i] = toe[i] / sockets[i];
                if (!Double.isNaN(ratio[i])) {
                    any = true;
                    total++;
                    lower += ratio[i] < 1 ? 1 : 0;
                    sendLower += i < 2 && ratio[i] < 1 ? 1 : 0;
                    text.append(f("%s %s %s %.2f; ", where, i < 2 ? "send" : "receive", size("" + CHUNKS[i % 2]),
                            ratio[i]));
                }
            }
            if (any) {
                rows.add(row(where + ": jwarp TOE, host", toe));
                rows.add(row(where + ": Java sockets, host", sockets));
                rows.add(row(where + ": TOE / sockets", ratio));
            }
        }
        if (total == 0) {
            return Verdict.none("the run has no point measured over both the TOE and Java sockets.");
        }
        Verdict.Outcome o = lower == total ? Verdict.Outcome.REPRODUCED : sendLower > 0 || lower > 0
                ? Verdict.Outcome.PARTLY : Verdict.Outcome.NOT;
        return new Verdict(o, f("host CPU per Gb/s, TOE below Java sockets at %d of %d points (the paper: 0.09-0.18 of "
                + "TCP's everywhere)", lower, total), "Host CPU per Gb/s, TOE / Java sockets (below 1: the offload saves "
                + "host CPU, as the paper found): " + text + lower + " of " + total + " points below 1.")
                .withComparison(header, rows);
    }

    private static List<String> row(String label, double[] v) {
        List<String> r = new ArrayList<>(List.of(label));
        for (double x : v) {
            r.add(Rows.number(x));
        }
        return r;
    }
}
