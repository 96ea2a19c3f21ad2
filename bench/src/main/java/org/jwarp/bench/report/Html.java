package org.jwarp.bench.report;

import java.util.List;
import java.util.Locale;

/** The report's HTML pieces: escaping, numbers as a reader wants them, and small tables. */
final class Html {

    private Html() {
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /**
     * A measured value for a reader: three significant digits, whole numbers from 100 on (no
     * exponent, no trailing zeros), empty for NaN.
     */
    static String number(double v) {
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
        int decimals = a >= 10 ? 1 : a >= 1 ? 2 : a == 0 ? 0 : Math.min(6, 2 - (int) Math.floor(Math.log10(a)));
        String s = String.format(Locale.ROOT, "%." + decimals + "f", v);
        return s.contains(".") ? s.replaceFirst("0+$", "").replaceFirst("\\.$", "") : s;
    }

    /** A table: header cells, then rows; the first column left-aligned (a label), the others as numbers. */
    static void table(StringBuilder sb, String cssClass, List<String> header, List<List<String>> rows) {
        sb.append("<table class=\"").append(cssClass).append("\"><thead><tr>");
        for (String h : header) {
            sb.append("<th>").append(esc(h)).append("</th>");
        }
        sb.append("</tr></thead><tbody>\n");
        for (List<String> r : rows) {
            sb.append("<tr>");
            for (int i = 0; i < r.size(); i++) {
                sb.append(i == 0 ? "<th scope=\"row\">" : "<td>").append(esc(r.get(i))).append(i == 0 ? "</th>" : "</td>");
            }
            sb.append("</tr>\n");
        }
        sb.append("</tbody></table>\n");
    }
}
