package org.jwarp.bench.report;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.jwarp.bench.experiment.SizeText;
import org.jwarp.bench.experiments.Rows;
import org.jwarp.bench.experiments.RunResult;
import org.jwarp.bench.experiments.TableWords;

/**
 * An experiment's rows as tables a reader can take in: one table per part of the run (the size
 * sweep, the delay sweep...), a column's unit in its header, numbers to three significant digits,
 * sizes as {@code 64 KiB}, and a column with the same value in every row of a table said once
 * above it instead (a run's single repeat not at all).
 */
final class ResultTable {

    /** Headers for reading that every experiment's columns share, where the suffix rules make none. */
    private static final Map<String, String> NAMES = Map.of("gbps", "Gb/s");

    /** Headings of the parts that several experiments' runs have. */
    private static final Map<String, String> PARTS = Map.of("size", "By message size", "delay",
            "By added delay (degen testbed)");

    /** Suffixes that carry a unit: {@code typical_us} reads "typical, µs". */
    private static final String[][] UNITS = {{"_pct", "%"}, {"_us", "µs"}, {"_ms", "ms"}, {"_s", "s"}};

    private ResultTable() {
    }

    /** The tables of {@code e}, each under a heading if the run has parts; {@code words}: its experiment's own. */
    static void render(StringBuilder sb, RunResult e, TableWords words) {
        int part = e.header().indexOf("part");
        Map<String, List<String[]>> parts = new LinkedHashMap<>();
        for (String[] r : e.rows()) {
            parts.computeIfAbsent(part < 0 ? "" : r[part], k -> new ArrayList<>()).add(r);
        }
        for (Map.Entry<String, List<String[]>> p : parts.entrySet()) {
            if (!p.getKey().isEmpty()) {
                sb.append("<h4>").append(Html.esc(partTitle(p.getKey(), words))).append("</h4>\n");
            }
            table(sb, e.header(), p.getValue(), part, words);
        }
    }

    private static String partTitle(String part, TableWords words) {
        String title = words.parts().getOrDefault(part, PARTS.get(part));
        return title != null ? title : "Part: " + part;
    }

    private static void table(StringBuilder sb, List<String> header, List<String[]> rows, int part,
                              TableWords words) {
        List<Integer> shown = new ArrayList<>();
        List<String> same = new ArrayList<>();
        for (int c = 0; c < header.size(); c++) {
            if (c == part) {
                continue;
            }
            boolean constant = true;
            for (String[] r : rows) {
                constant &= r[c].equals(rows.getFirst()[c]);
            }
            if (!constant || rows.size() == 1) {
                shown.add(c);
            } else if (!header.get(c).equals("repeat") && !rows.getFirst()[c].isEmpty()) {
                same.add(constant(name(header.get(c), words), cell(header.get(c), rows.getFirst()[c], words)));
            }
        }
        if (!same.isEmpty()) {
            sb.append("<p class=\"same\">In every row: ").append(Html.esc(String.join("; ", same))).append(".</p>\n");
        }
        List<String> head = new ArrayList<>();
        for (int c : shown) {
            head.add(name(header.get(c), words));
        }
        List<List<String>> body = new ArrayList<>();
        for (String[] r : rows) {
            List<String> cells = new ArrayList<>();
            for (int c : shown) {
                cells.add(cell(header.get(c), r[c], words));
            }
            body.add(cells);
        }
        sb.append("<div class=\"scroll\">");
        Html.table(sb, "data", head, body);
        sb.append("</div>\n");
    }

    /** A column that holds one value, for a sentence: {@code delay 0 ms}, {@code clients 8}; {@code name} its header. */
    static String constant(String name, String cell) {
        int comma = name.lastIndexOf(", ");
        return comma < 0 ? name + " " + cell : name.substring(0, comma) + " " + cell + " " + name.substring(comma + 2);
    }

    /** A column's header for reading: its name, then its unit. */
    static String name(String column, TableWords words) {
        String known = words.headers().getOrDefault(column, NAMES.get(column));
        if (known != null) {
            return known;
        }
        for (String[] u : UNITS) {
            if (column.endsWith(u[0])) {
                return column.substring(0, column.length() - u[0].length()).replace('_', ' ') + ", " + u[1];
            }
        }
        return column.replace('_', ' ');
    }

    /** A cell for reading: sizes in B, KiB or MiB, numbers rounded, yes or no for booleans. */
    static String cell(String column, String value, TableWords words) {
        if (value.isEmpty()) {
            return "–";
        }
        if (value.equals("true") || value.equals("false")) {
            return value.equals("true") ? "yes" : "no";
        }
        try {
            double v = Double.parseDouble(value);
            if ((column.equals("size") || words.sizeColumns().contains(column)) && v == Math.rint(v)) {
                return SizeText.of((long) v);
            }
            return value.matches("-?\\d+") && value.length() > 4 ? grouped(value) : Rows.number(v);
        } catch (NumberFormatException x) {
            return value;
        }
    }

    /** A long whole number with thin spaces between thousands: 2 717 777 920. */
    private static String grouped(String digits) {
        StringBuilder sb = new StringBuilder();
        int n = digits.length();
        for (int i = 0; i < n; i++) {
            if (i > 0 && (n - i) % 3 == 0 && Character.isDigit(digits.charAt(i - 1))) {
                sb.append('\u2009');
            }
            sb.append(digits.charAt(i));
        }
        return sb.toString();
    }
}
