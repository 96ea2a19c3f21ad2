package org.jwarp.bench.report;

import java.util.List;

/** The report's HTML pieces: escaping and small tables. */
final class Html {

    private Html() {
    }

    static String esc(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }

    /** Whether a cell reads as a number (set right, to line up), not as words (set left). */
    private static boolean numeric(String cell) {
        return cell.isEmpty() || "0123456789-−–∞".indexOf(cell.charAt(0)) >= 0;
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
                String c = r.get(i);
                sb.append(i == 0 ? "<th scope=\"row\">" : numeric(c) ? "<td>" : "<td class=\"t\">").append(esc(c))
                        .append(i == 0 ? "</th>" : "</td>");
            }
            sb.append("</tr>\n");
        }
        sb.append("</tbody></table>\n");
    }
}
