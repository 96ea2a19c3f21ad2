package org.jwarp.bench.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * Text in an SVG chart: escaping, numbers for coordinates, and how wide a string comes out in a
 * sans-serif font, estimated from character classes, since the chart is laid out without the font
 * (the browser picks it) and must still keep titles and legends inside the picture.
 */
final class SvgText {

    private SvgText() {
    }

    /** The estimated width of {@code s} at font size {@code size}: an upper bound for common sans-serif fonts. */
    static double width(String s, double size) {
        double em = 0;
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            if ("iljtfI.,:;'|!() ".indexOf(c) >= 0) {
                em += 0.32;
            } else if ("mwMW%@".indexOf(c) >= 0) {
                em += 0.9;
            } else if (Character.isUpperCase(c)) {
                em += 0.7;
            } else {
                em += 0.58;
            }
        }
        return em * size;
    }

    /** {@code s} broken at spaces into lines of at most {@code max} wide (a longer word stays whole). */
    static List<String> wrap(String s, double size, double max) {
        List<String> lines = new ArrayList<>();
        StringBuilder line = new StringBuilder();
        for (String word : s.split(" ")) {
            if (!line.isEmpty() && width(line + " " + word, size) > max) {
                lines.add(line.toString());
                line.setLength(0);
            }
            line.append(line.isEmpty() ? "" : " ").append(word);
        }
        lines.add(line.toString());
        return lines;
    }

    /** A coordinate, to a tenth of a pixel. */
    static String num(double v) {
        double r = Math.rint(v * 10) / 10;
        return r == Math.rint(r) ? String.format(Locale.ROOT, "%.0f", r) : String.format(Locale.ROOT, "%.1f", r);
    }

    static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace("\"", "&quot;");
    }
}
