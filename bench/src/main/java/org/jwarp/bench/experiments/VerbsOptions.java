package org.jwarp.bench.experiments;

import static org.jwarp.bench.experiments.Rows.f;
import static org.jwarp.bench.experiments.Rows.median;
import static org.jwarp.bench.experiments.Rows.medians;
import static org.jwarp.bench.experiments.Rows.size;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
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
