package org.jwarp.bench.experiments;

import static org.jwarp.bench.experiments.Rows.f;
import static org.jwarp.bench.experiments.Rows.medians;
import static org.jwarp.bench.experiments.Rows.size;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** Offloaded sockets against Java sockets, host CPU per Gb/s (seed 001, Tables I and II, set beside ours). */
final class Toe extends SeedExperiment {

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
