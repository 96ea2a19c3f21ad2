package org.jwarp.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The verdict of each experiment ({@link WanVerdicts} for seed 000's, {@link StackVerdicts} for
 * the others) and what they share: the medians of a column over rows grouped by other columns.
 */
final class Verdicts {

    private Verdicts() {
    }

    /** Whether the data shows the paper's finding, and on which numbers. */
    static Verdict of(Experiment e) {
        return switch (e.name()) {
            case "toe" -> StackVerdicts.toe(e);
            case "rss" -> StackVerdicts.rss(e);
            case "iwarp-vs-tcp" -> StackVerdicts.iwarpVsTcp(e);
            case "verbs-options" -> StackVerdicts.verbsOptions(e);
            case "latency" -> WanVerdicts.latency(e);
            case "progress" -> WanVerdicts.progress(e);
            case "rendezvous" -> WanVerdicts.rendezvous(e);
            case "overlap" -> WanVerdicts.overlap(e);
            case "cpu-impact" -> WanVerdicts.cpuImpact(e);
            default -> Verdict.none("this report does not know experiment '" + e.name() + "'.");
        };
    }

    /** Medians of column {@code value} over the rows grouped by the {@code key} columns' values, joined by '|'. */
    static Map<String, Double> medians(Experiment e, List<String> key, String value) {
        Map<String, Double> out = new TreeMap<>();
        byKey(e, value, key.toArray(String[]::new)).forEach((x, l) -> out.put(x, median(l)));
        return out;
    }

    /** The values of column {@code value} grouped by the joined {@code keys} columns, in key order; empty cells left out. */
    static Map<String, List<Double>> byKey(Experiment e, String value, String... keys) {
        int v = e.column(value);
        int[] k = new int[keys.length];
        for (int i = 0; i < keys.length; i++) {
            k[i] = e.column(keys[i]);
        }
        Map<String, List<Double>> by = new TreeMap<>();
        for (String[] r : e.rows()) {
            if (r[v].isEmpty()) {
                continue;
            }
            StringBuilder key = new StringBuilder();
            for (int i : k) {
                key.append(key.isEmpty() ? "" : "|").append(r[i]);
            }
            by.computeIfAbsent(key.toString(), x -> new ArrayList<>()).add(Double.parseDouble(r[v]));
        }
        return by;
    }

    static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }

    /** A CSV number without trailing zeros: {@code 2.000} is 2, {@code 0.500} is 0.5. */
    static String trim(String number) {
        return number.contains(".") ? number.replaceFirst("0+$", "").replaceFirst("\\.$", "") : number;
    }

    /** A size in bytes from the CSV, as {@code 64 KiB}. */
    static String size(String bytes) {
        return org.jwarp.bench.experiment.SizeText.of((long) Double.parseDouble(bytes));
    }

    static double min(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).min().orElse(Double.NaN);
    }

    static double max(List<Double> v) {
        return v.stream().mapToDouble(Double::doubleValue).max().orElse(Double.NaN);
    }

    static double median(List<Double> v) {
        List<Double> s = v.stream().sorted().toList();
        int n = s.size();
        return n == 0 ? Double.NaN : n % 2 == 1 ? s.get(n / 2) : (s.get(n / 2 - 1) + s.get(n / 2)) / 2;
    }
}
