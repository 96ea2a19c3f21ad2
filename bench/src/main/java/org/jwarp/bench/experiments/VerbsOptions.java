package org.jwarp.bench.experiments;

import static org.jwarp.bench.experiments.Rows.f;
import static org.jwarp.bench.experiments.Rows.median;
import static org.jwarp.bench.experiments.Rows.medians;
import static org.jwarp.bench.experiments.Rows.size;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Predicate;

/** What the verbs options buy: ping and blast (seed 003, Fig. 1-6). */
final class VerbsOptions extends SeedExperiment {

    VerbsOptions() {
        super("verbs-options", "seed 003 Fig. 1-6: ping and blast over jwarp by opcode set, inline, busy poll "
                + "vs events, outstanding buffers, post lists, signaling; one-way time, "
                + "throughput, CPU",
                new Paper("Verbs options: ping and blast (seed 003, Fig. 1-6)", "seed 003 Fig. 1-6",
                    "How do the verbs' options change one-way time, throughput and CPU: the opcode set, inline data, "
                            + "busy polling against completion events, the outstanding buffers, one work request per "
                            + "post against post lists, full against periodic signaling?",
                    "Busy polling gives lower one-way times than events (at 100 % CPU), inline helps small messages, "
                            + "and more outstanding buffers cut the one-way time of small messages several fold (to "
                            + "about 0.3 µs at 8-16 buffers); post lists did no better than one request per post for "
                            + "small messages, and periodic signaling made no difference with one request per post."));
    }

    @Override
    public TableWords tableWords() {
        return new TableWords(Map.of("cq_mod", "signal every", "post_list", "post list"), Map.of(
                "ping", "Ping by opcode and size (Fig. 1)",
                "blast-small", "Blast with one buffer, by size (Fig. 2)",
                "buffers", "Blast by outstanding buffers: RDMA WRITE, inline, busy polling (Fig. 3)",
                "buffers-large", "Larger messages by outstanding buffers, post lists (Fig. 4)",
                "opcodes-large", "Each opcode set with " + VerbsOptionsExperiment.LARGE_BUFFERS
                        + " buffers, post lists (Fig. 5)",
                "signaling", "Signaling every N-th work request, " + VerbsOptionsExperiment.SIGNALING_SIZE
                        + " B (Fig. 6)"), Set.of());
    }

    @Override
    public List<String> help() {
        return List.of("Seed 003's Fig. 1-6: the ping and blast tools over jwarp (the perf tests, --loopback, in this "
                + "process), one verbs option varied at a time: the opcode set (SEND/RECV, WRITE, WRITE WITH IMM/RECV, "
                + "READ), inline or not, busy polling or completion events, 1 to 128 outstanding buffers, one work "
                + "request per post or post lists, full or periodic signaling; one-way time, throughput and each side's "
                + "CPU.",
                "Parts (figures): ping (Fig. 1), blast-small (Fig. 2), buffers (Fig. 3), buffers-large (Fig. 4), "
                        + "opcodes-large (Fig. 5), signaling (Fig. 6a-b).",
                "Quick: a few sizes and buffer counts per part, 0.3 s measured per point, one run.");
    }

    @Override
    public List<ExperimentOption> options() {
        return List.of(ExperimentOption.REPEATS,
                ExperimentOption.list("--parts", "PART,...", String.class, "Which parts (figures) run instead of all "
                        + "of them."),
                ExperimentOption.list("--buffers", "N,...", Integer.class, "Outstanding buffer counts (Fig. 3, 4 and "
                        + "6) instead of the mode's."),
                ExperimentOption.one("--seconds", "S", Double.class, "Measured seconds per point instead of the "
                        + "mode's."));
    }

    @Override
    public void run(ExperimentRun run) throws Exception {
        VerbsOptionsExperiment.Plan base = run.quick() ? VerbsOptionsExperiment.Plan.quick()
                : VerbsOptionsExperiment.Plan.full();
        List<String> parts = run.option("--parts");
        if (parts != null && !VerbsOptionsExperiment.PARTS.containsAll(parts)) {
            throw run.bad("--parts takes " + String.join(", ", VerbsOptionsExperiment.PARTS) + ", not "
                    + String.join(",", parts));
        }
        VerbsOptionsExperiment.Plan plan = new VerbsOptionsExperiment.Plan(parts == null ? base.parts()
                : List.copyOf(parts), base.pingSizes(), base.smallSizes(), base.bufferSizes(),
                run.check("--buffers", base.buffers(), 1, 128, "buffers"), base.largeSizes(),
                run.check("--buffers", base.largeBuffers(), 1, 128, "buffers"), base.opcodeSizes(),
                run.repeats(base.repeats()), run.range("--seconds", base.seconds(), 0.05, 600));
        List<String> notes = new ArrayList<>();
        notes.add(Runtime.getRuntime().availableProcessors() + " CPUs; " + (VerbsOptionsExperiment.pinning() == null
                ? "no pinning" : "client threads on CPU 0, server threads on CPU 1") + "; jwarp in its default threading "
                + "mode for this machine");
        Path dir = run.dir();
        int total = plan.settings().size();
        run.out().printf(java.util.Locale.ROOT, "jwarp experiment verbs-options (%s): parts %s, %d points, %.1f s "
                + "measured each, %d run(s)%n", run.mode(), plan.parts(), total, plan.seconds(), plan.repeats());
        run.out().flush();
        List<String> threads = new ArrayList<>();
        List<VerbsOptionsExperiment.Point> points;
        try (ExperimentProgress bar = new ExperimentProgress(run.out(), total)) {
            points = VerbsOptionsExperiment.run(run.jwarp(), plan, threads, p -> bar.point(line(p)));
        }
        for (String t : threads) {
            notes.add("where threads ran (first point): " + t);
        }
        ExperimentData.printSummary(run.out(), dir, VerbsOptionsExperiment.write(dir, plan, points, run.mode(), notes));
    }

    private static String line(VerbsOptionsExperiment.Point p) {
        return f("  %-13s %-9s %-6s %-6s %8d B x%-3d list %-3d signal/%-3d: one-way %9.3f us, %8.3f Gb/s, CPU client "
                + "%3.0f %% server %3.0f %%", p.part(), p.opcode(), p.inline() ? "inline" : "-", p.events() ? "events"
                : "busy", p.size(), p.buffers(), p.postList(), p.cqMod(), p.oneWayUs(), p.gbps(), p.activeCpuPct(),
                p.passiveCpuPct());
    }

    @Override
    public Verdict verdict(RunResult e) {
        Map<String, Double> t = medians(e, List.of("part", "opcode", "inline", "events", "size", "buffers", "post_list",
                "cq_mod"), "one_way_us");
        StringBuilder sb = new StringBuilder();
        int held = 0;
        int checks = 0;
        // each comparison: the pairs of points that differ in one option only
        int[] busy = pairs(t, "ping", 3, "false", "true", x -> true);
        if (busy[1] > 0) {
            checks++;
            held += busy[0] * 2 > busy[1] ? 1 : 0;
            sb.append(f("ping: busy polling below events at %d of %d points (the paper: always); ", busy[0], busy[1]));
        }
        int[] inline = pairs(t, "ping", 2, "true", "false", x -> x[3].equals("false"));
        if (inline[1] > 0) {
            checks++;
            held += inline[0] * 2 > inline[1] ? 1 : 0;
            sb.append(f("inline below not inline (busy polling) at %d of %d sizes (the paper: always below 256 B); ",
                    inline[0], inline[1]));
        }
        Double one = null;
        Double most = null;
        int mostBuffers = 0;
        for (Map.Entry<String, Double> x : t.entrySet()) {
            String[] k = x.getKey().split("\\|");
            if (k[0].equals("buffers") && k[6].equals("1")) {
                int b = Integer.parseInt(k[5]);
                if (b == 1) {
                    one = x.getValue();
                } else if (b > mostBuffers) {
                    mostBuffers = b;
                    most = x.getValue();
                }
            }
        }
        if (one != null && most != null) {
            checks++;
            held += most < one ? 1 : 0;
            sb.append(f("blast one-way time, 1 → %d buffers: %.2f → %.2f µs (the paper: to about 0.3 µs); ",
                    mostBuffers, one, most));
        }
        Map<String, Double> single = new TreeMap<>();
        Map<String, Double> list = new TreeMap<>();
        Map<String, Double> full = new TreeMap<>();
        Map<String, Double> periodic = new TreeMap<>();
        for (Map.Entry<String, Double> x : t.entrySet()) {
            String[] k = x.getKey().split("\\|");
            if ((k[0].equals("buffers") || k[0].equals("signaling")) && !k[5].equals("1") && k[7].equals("1")) {
                (k[6].equals("1") ? single : list).put(k[0] + "|" + k[4] + "|" + k[5], x.getValue());
            }
            if (k[0].equals("signaling") && k[6].equals("1")) {
                (k[7].equals("1") ? full : periodic).put(k[5], x.getValue());
            }
        }
        int singleBetter = 0;
        int lists = 0;
        for (Map.Entry<String, Double> x : list.entrySet()) {
            Double s = single.get(x.getKey());
            if (s != null) {
                lists++;
                singleBetter += s <= x.getValue() ? 1 : 0;
            }
        }
        if (lists > 0) {
            checks++;
            held += singleBetter * 2 > lists ? 1 : 0;
            sb.append(f("one WR per post at or below post lists at %d of %d points (the paper: single posting better "
                    + "for small messages); ", singleBetter, lists));
        }
        List<Double> ratios = new ArrayList<>();
        periodic.forEach((b, v) -> {
            if (full.containsKey(b)) {
                ratios.add(v / full.get(b));
            }
        });
        if (!ratios.isEmpty()) {
            checks++;
            double r = median(ratios);
            held += r > 0.8 && r < 1.25 ? 1 : 0;
            sb.append(f("periodic / full signaling one-way time, one WR per post: %.2f (the paper: no difference); ", r));
        }
        if (checks == 0) {
            return Verdict.none("the run has no pair of points that differ in one option.");
        }
        return new Verdict(Verdict.of(held, checks), f("%d of the paper's %d findings on the options hold here", held,
                checks), "Verbs options over jwarp: " + sb.toString().replaceFirst("; $", "."));
    }

    /**
     * Of the points of {@code part} that {@code which} takes, with {@code a} in field {@code field}
     * of their key: how many have a time below the point that differs only by {@code b} there, and
     * of how many such pairs.
     */
    private static int[] pairs(Map<String, Double> t, String part, int field, String a, String b,
                               Predicate<String[]> which) {
        int below = 0;
        int total = 0;
        for (Map.Entry<String, Double> x : t.entrySet()) {
            String[] k = x.getKey().split("\\|");
            if (k[0].equals(part) && k[field].equals(a) && which.test(k)) {
                k[field] = b;
                Double y = t.get(String.join("|", k));
                if (y != null) {
                    total++;
                    below += x.getValue() < y ? 1 : 0;
                }
            }
        }
        return new int[] {below, total};
    }
}
