package org.jwarp.bench.experiments;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import org.jwarp.bench.experiment.SizeText;

/**
 * What the experiments' verdicts share: the medians of a column over a run's rows grouped by
 * other columns, and numbers and sizes written for a reader.
 */
public final class Rows {

    /** What a headline adds when the run had no delay sweep (it needs root), so the outcome rests on the LAN half. */
    static final String NO_SWEEP = "; no delay sweep in this run";

    private Rows() {
    }

    /** Medians of column {@code value} over the rows grouped by the {@code key} columns' values, joined by '|'. */
    static Map<String, Double> medians(RunResult e, List<String> key, String value) {
        Map<String, Double> out = new TreeMap<>();
        byKey(e, value, key.toArray(String[]::new)).forEach((x, l) -> out.put(x, median(l)));
        return out;
    }

    /**
     * The medians of {@code value} by the {@code key} columns over the rows of one part of the run
     * (column {@code part}), keyed by the {@code key} columns, the first one in numeric order.
     */
    static Map<String, Double> part(RunResult e, String part, List<String> key, String value) {
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

    /** The values of column {@code value} grouped by the joined {@code keys} columns, in key order; empty cells left out. */
    static Map<String, List<Double>> byKey(RunResult e, String value, String... keys) {
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

    /**
     * A measured value for a reader: three significant digits, whole numbers from 100 on (no
     * exponent, no trailing zeros), empty for NaN.
     */
    public static String number(double v) {
        if (Double.isNaN(v)) {
            return "";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "∞" : "−∞";
        }
        double a = Math.abs(v);
        if (a >= 100 || v == Math.rint(v)) {
            return String.format(Locale.ROOT, "%.0f", v);
        }
        int decimals = a >= 10 ? 1 : a >= 1 ? 2 : Math.min(6, 2 - (int) Math.floor(Math.log10(a)));
        String s = String.format(Locale.ROOT, "%." + decimals + "f", v);
        return s.contains(".") ? s.replaceFirst("0+$", "").replaceFirst("\\.$", "") : s;
    }

    static String f(String format, Object... args) {
        return String.format(Locale.ROOT, format, args);
    }

    /** A CSV number without trailing zeros: {@code 2.000} is 2, {@code 0.500} is 0.5. */
    public static String trim(String number) {
        return number.contains(".") ? number.replaceFirst("0+$", "").replaceFirst("\\.$", "") : number;
    }

    /** A size in bytes from the CSV, as {@code 64 KiB}. */
    static String size(String bytes) {
        return SizeText.of((long) Double.parseDouble(bytes));
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
