package org.jwarp.bench.report;

import static org.jwarp.bench.report.Verdicts.f;
import static org.jwarp.bench.report.Verdicts.median;
import static org.jwarp.bench.report.Verdicts.medians;
import static org.jwarp.bench.report.Verdicts.size;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Predicate;

/**
 * The verdicts of the stack experiments: offloaded sockets (seed 001), software iWARP against TCP
 * (seed 002), the verbs options (seed 003) and receive-side scaling (seed 004). Seeds 001 and 002
 * give numbers, which the verdict sets beside ours.
 */
final class StackVerdicts {

    /** Seed 001, Table II (TOE) and Table I (Solaris TCP): % of one CPU per Gb/s; send 128 KB, 8 KB, receive 128 KB, 8 KB. */
    private static final double[] PAPER_TOE = {11, 14, 12, 24};
    private static final double[] PAPER_TCP = {81, 81, 134, 134};
    private static final int[] CHUNKS = {131072, 8192};

    private StackVerdicts() {
    }

    static Verdict toe(Experiment e) {
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
            r.add(Html.number(x));
        }
        return r;
    }

    static Verdict rss(Experiment e) {
        int engines = e.column("engines");
        int steering = e.column("steering");
        int moderated = e.column("moderated");
        int connections = e.column("connections");
        int wakeups = e.column("wakeups_per_s");
        String[] few = null;
        String[] many = null;
        for (String[] r : e.rows()) {
            if (r[engines].equals("1") && r[moderated].equals("false") && r[steering].equals("rss")) {
                if (few == null || Integer.parseInt(r[connections]) < Integer.parseInt(few[connections])) {
                    few = r;
                }
                if (many == null || Integer.parseInt(r[connections]) > Integer.parseInt(many[connections])) {
                    many = r;
                }
            }
        }
        if (few == null || few == many) {
            return Verdict.none("the run has fewer than two connection counts on one engine thread.");
        }
        double a = Double.parseDouble(few[wakeups]);
        double b = Double.parseDouble(many[wakeups]);
        String headline = f("wake-ups per second on one engine thread, %s → %s connections: %.0f → %.0f",
                few[connections], many[connections], a, b);
        return new Verdict(b < a ? Verdict.Outcome.REPRODUCED : Verdict.Outcome.NOT, headline,
                "W" + headline.substring(1) + " — " + (b < a ? "they fall as connections are added, as the paper's "
                + "batching argument predicts." : "they do not fall here."));
    }

    static Verdict iwarpVsTcp(Experiment e) {
        Map<String, Double> gbps = medians(e, List.of("part", "size", "stack"), "gbps");
        Map<String, Double> lat = medians(e, List.of("part", "size", "stack"), "typical_us");
        Map<String, Double> tx = medians(e, List.of("part", "size", "stack"), "client_soak_pct");
        Map<String, Double> rx = medians(e, List.of("part", "size", "stack"), "server_soak_pct");
        StringBuilder crc = new StringBuilder();
        StringBuilder cpu = new StringBuilder();
        double leastCrc = Double.NaN;
        double mostCrc = Double.NaN;
        for (String k : gbps.keySet()) {
            if (!k.endsWith("|jwarp-crc")) {
                continue;
            }
            String base = k.substring(0, k.length() - "jwarp-crc".length());
            Double off = gbps.get(base + "jwarp-nocrc");
            Double tcp = gbps.get(base + "tcp");
            double on = gbps.get(k);
            String s = size(base.split("\\|")[1]);
            if (off != null) {
                leastCrc = Double.isNaN(leastCrc) ? on / off : Math.min(leastCrc, on / off);
                mostCrc = Double.isNaN(mostCrc) ? on / off : Math.max(mostCrc, on / off);
                crc.append(f("%s %.0f Mb/s (%.0f %%); ", s, (off - on) * 1000, 100 * (off - on) / off));
            }
            if (tcp != null && tx.containsKey(k) && tx.containsKey(base + "tcp")) {
                cpu.append(f("%s sender %.2f, receiver %.2f; ", s, tx.get(k) / on / (tx.get(base + "tcp") / tcp),
                        rx.get(k) / on / (rx.get(base + "tcp") / tcp)));
            }
        }
        StringBuilder latency = new StringBuilder();
        double worstLatency = 0;
        for (String k : lat.keySet()) {
            String base = k.substring(0, k.lastIndexOf('|') + 1);
            if (k.endsWith("|jwarp-crc") && lat.containsKey(base + "tcp")) {
                double r = lat.get(k) / lat.get(base + "tcp");
                worstLatency = Math.max(worstLatency, r);
                latency.append(f("%s %.2f; ", size(base.split("\\|")[1]), r));
            }
        }
        if (crc.isEmpty() || latency.isEmpty()) {
            return Verdict.none("the run lacks a latency point against TCP or a throughput point with CRC on and off.");
        }
        // the paper: kernel software iWARP 1.20x TCP's latency at 4 B (20.3 / 16.9 us), 1.03x at 64 kB; CRC 8 Mb/s of ~600
        boolean nearTcp = worstLatency <= 1.25;
        boolean cheapCrc = leastCrc >= 0.9;
        String headline = f("latency at most %.2f× TCP's (the paper: 1.20× at 4 B); throughput with the CRC %.2f-%.2f× "
                + "without it (the paper: 8 Mb/s less, about 0.99×)", worstLatency, leastCrc, mostCrc);
        List<List<String>> rows = new ArrayList<>();
        rows.add(List.of("paper: kernel software iWARP, CRC on (Table 2)", "20.3", "615.5"));
        rows.add(List.of("paper: kernel software iWARP, CRC off (Table 2)", "20.1", "604.5"));
        rows.add(List.of("paper: TCP (Table 1)", "16.9", "594.8"));
        for (String[] st : new String[][] {{"jwarp-crc", "jwarp, CRC on"}, {"jwarp-nocrc", "jwarp, CRC off"},
            {"tcp", "Java TCP sockets"}}) {
            rows.add(List.of("ours: " + st[1], Html.number(lat.getOrDefault("latency|4|" + st[0], Double.NaN)),
                    Html.number(lat.getOrDefault("latency|65536|" + st[0], Double.NaN))));
        }
        return new Verdict(Verdict.of((nearTcp ? 1 : 0) + (cheapCrc ? 1 : 0), 2), headline, "The MPA CRC cost jwarp "
                + crc + "(the paper: about 8 Mb/s on 1 GbE, where the link bounded every stack). Latency, jwarp with CRC "
                + "/ TCP: " + latency + "soaker CPU per Gb/s, jwarp with CRC / TCP: " + cpu + "(the paper: software "
                + "iWARP near full load, TCP less).").withComparison(List.of("one-way latency, µs", "4 B", "64 KiB"), rows);
    }

    static Verdict verbsOptions(Experiment e) {
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
