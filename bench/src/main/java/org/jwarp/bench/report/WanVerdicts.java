package org.jwarp.bench.report;

import static org.jwarp.bench.report.Verdicts.f;
import static org.jwarp.bench.report.Verdicts.max;
import static org.jwarp.bench.report.Verdicts.median;
import static org.jwarp.bench.report.Verdicts.medians;
import static org.jwarp.bench.report.Verdicts.min;
import static org.jwarp.bench.report.Verdicts.size;
import static org.jwarp.bench.report.Verdicts.trim;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The verdicts of seed 000's experiments (RDMA over IP on a LAN and an emulated WAN). The paper
 * gives figures, not numbers: each verdict checks the figure's shape and names our numbers.
 */
final class WanVerdicts {

    /** What a headline adds when the run had no delay sweep (it needs root), so the outcome rests on the LAN half. */
    private static final String NO_SWEEP = "; no delay sweep in this run";

    private WanVerdicts() {
    }

    /** The medians of {@code value} by the {@code key} columns whose first column is {@code part}, keyed by the rest. */
    private static Map<String, Double> part(Experiment e, String part, List<String> key, String value) {
        List<String> k = new ArrayList<>(List.of("part"));
        k.addAll(key);
        Map<String, Double> out = new TreeMap<>(Comparator.comparing((String x) -> numeric(x.split("\\|")[0]))
                .thenComparing(x -> x));
        medians(e, k, value).forEach((x, v) -> {
            if (x.startsWith(part + "|")) {
                out.put(x.substring(part.length() + 1), v);
            }
        });
        return out;
    }

    private static double numeric(String s) {
        try {
            return Double.parseDouble(s);
        } catch (NumberFormatException x) {
            return Double.NaN;
        }
    }

    static Verdict latency(Experiment e) {
        Map<String, Double> size = part(e, "size", List.of("size", "transport"), "typical_us");
        Map<String, Double> delay = part(e, "delay", List.of("delay_ms", "transport"), "typical_us");
        List<Double> ratios = new ArrayList<>();
        StringBuilder sizes = new StringBuilder();
        int below = 0;
        for (Map.Entry<String, Double> x : size.entrySet()) {
            String s = x.getKey().split("\\|")[0];
            Double so = size.get(s + "|sockets-busypoll");
            if (x.getKey().endsWith("|jwarp") && so != null) {
                ratios.add(x.getValue() / so);
                below += x.getValue() < so ? 1 : 0;
                sizes.append(f("%s %.2f; ", size(s), x.getValue() / so));
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
                min(ratios), max(ratios)) + (delayRatios.isEmpty() ? NO_SWEEP : f("; with delay %.2f-%.2f×, both following "
                + "the delay", min(delayRatios), max(delayRatios)));
        return new Verdict(Verdict.of(held, delayRatios.isEmpty() ? 1 : 2), headline, "Typical one-way latency, jwarp "
                + "/ busy-polling sockets, by size: " + sizes + below + " of " + ratios.size() + " sizes below sockets"
                + (delayRatios.isEmpty() ? " (no delay sweep in this run)." : ". With added delay (jwarp / sockets): "
                + delays + (follow ? "both follow the delay, as in the paper." : "they do not both follow the delay.")));
    }

    static Verdict progress(Experiment e) {
        Map<String, Double> load = part(e, "load", List.of("load_ms", "stack"), "median_us");
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
        Map<String, Double> delay = part(e, "delay", List.of("delay_ms", "stack"), "median_us");
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
                trim(f("%.3f", lo)), trim(f("%.3f", hi)), s0, s1) + (delayed == 0 ? NO_SWEEP : "");
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

    static Verdict rendezvous(Experiment e) {
        Map<String, Double> lat = part(e, "size", List.of("size", "protocol"), "median_us");
        Map<String, Double> cpu = part(e, "size", List.of("size", "protocol"), "server_app_us");
        Map<String, Double> del = part(e, "delay", List.of("delay_ms", "protocol"), "median_us");
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
                + (lastDelay == null ? NO_SWEEP : f("; at %s ms of delay rendezvous %.2f× eager", trim(lastDelay), lastRatio));
        return new Verdict(Verdict.of((large ? 1 : 0) + (lastDelay != null && lastRatio > 1 ? 1 : 0),
                lastDelay == null ? 1 : 2), headline, "Message latency, eager / WRITE rendezvous / READ rendezvous, by "
                + "size: " + sizes + (large ? "rendezvous wins the largest size, as the paper argues. " : "rendezvous "
                + "does not win the largest size here. ") + (lastDelay == null ? "No delay sweep in this run."
                : "By added delay at 64 KiB: " + delays + (lastRatio > 1 ? "the address exchange's extra round trips "
                + "dominate as the delay grows, as the paper argues." : "rendezvous is not behind at the largest delay.")));
    }

    static Verdict overlap(Experiment e) {
        Map<String, List<Double>> by = Verdicts.byKey(e, "overlap", "part", "size", "compute_ms", "delay_ms", "stack");
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
                ahead, total) + (delays.isEmpty() ? NO_SWEEP : ""), f("Overlap ratio, RDMA WRITE against sockets: at or above sockets at %d of %d points",
                ahead, total) + (behind.isEmpty() ? "" : "; behind (RDMA / sockets) at " + String.join(", ", behind))
                + (delays.isEmpty() ? "." : ". With added delay (RDMA / sockets): " + delays
                + "the delay is overlapped by both."));
    }

    static Verdict cpuImpact(Experiment e) {
        Map<String, List<Double>> by = Verdicts.byKey(e, "slowdown", "part", "stack");
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
                + "over sizes)", r, s) + (rd == null ? NO_SWEEP : ""), f("The server job's slowdown under background streams (median over sizes): "
                + "×%.2f with RDMA WRITE (%.2f to %.2f), ×%.2f with sockets (%.2f to %.2f)%s: %s", r, min(rdma), max(rdma),
                s, min(sockets), max(sockets), rd == null || sd == null ? "" : f("; with added delay ×%.2f against ×%.2f",
                median(rd), median(sd)), r < s ? "RDMA costs the server's application less CPU than sockets, as the "
                + "paper found" + (r < 1.1 ? " (the job nearly unaffected)." : "; the software engine still takes some "
                + "of it.") : "RDMA did not spare the server's application here."));
    }
}
