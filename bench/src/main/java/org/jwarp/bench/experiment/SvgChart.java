package org.jwarp.bench.experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A line chart as a standalone SVG file, with no library: series of (x, y) points over a
 * logarithmic x axis (connection counts, sizes) and a linear y axis from 0, a legend and axis
 * labels. Enough for an experiment's figures to be looked at in any browser.
 */
public final class SvgChart {

    private static final String[] COLORS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
            "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
    private static final int W = 760;
    private static final int H = 440;
    private static final int LEFT = 70;
    private static final int RIGHT = 230;
    private static final int TOP = 40;
    private static final int BOTTOM = 55;

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final Map<String, List<double[]>> series = new LinkedHashMap<>();

    public SvgChart(String title, String xLabel, String yLabel) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
    }

    /** Adds a point to series {@code name} (x > 0). */
    public SvgChart point(String name, double x, double y) {
        series.computeIfAbsent(name, k -> new ArrayList<>()).add(new double[] {x, y});
        return this;
    }

    public String render() {
        double xMin = Double.MAX_VALUE;
        double xMax = Double.MIN_VALUE;
        double yMax = 0;
        for (List<double[]> pts : series.values()) {
            for (double[] p : pts) {
                xMin = Math.min(xMin, p[0]);
                xMax = Math.max(xMax, p[0]);
                yMax = Math.max(yMax, p[1]);
            }
        }
        if (series.isEmpty()) {
            xMin = 1;
            xMax = 2;
        }
        yMax = yMax <= 0 ? 1 : niceCeiling(yMax);
        double lx0 = Math.log(xMin);
        double lx1 = Math.max(Math.log(xMax), lx0 + 1e-9);
        int pw = W - LEFT - RIGHT;
        int ph = H - TOP - BOTTOM;
        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%d\" height=\"%d\" "
                + "font-family=\"sans-serif\" font-size=\"12\">%n", W, H));
        sb.append("<rect width=\"100%\" height=\"100%\" fill=\"white\"/>\n");
        sb.append(text(W / 2.0 - RIGHT / 2.0, 22, title, "middle", 15));
        sb.append(String.format(Locale.ROOT, "<rect x=\"%d\" y=\"%d\" width=\"%d\" height=\"%d\" fill=\"none\" "
                + "stroke=\"#444\"/>%n", LEFT, TOP, pw, ph));
        for (int i = 0; i <= 4; i++) {
            double y = TOP + ph - ph * i / 4.0;
            sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"#ddd\"/>%n",
                    LEFT, y, LEFT + pw, y));
            sb.append(text(LEFT - 6, y + 4, format(yMax * i / 4.0), "end", 11));
        }
        List<Double> ticks = new ArrayList<>();
        for (List<double[]> pts : series.values()) {
            for (double[] p : pts) {
                if (!ticks.contains(p[0])) {
                    ticks.add(p[0]);
                }
            }
        }
        for (double t : ticks) {
            double x = LEFT + pw * (Math.log(t) - lx0) / (lx1 - lx0);
            sb.append(text(x, TOP + ph + 16, format(t), "middle", 11));
        }
        sb.append(text(LEFT + pw / 2.0, H - 14, xLabel, "middle", 12));
        sb.append(String.format(Locale.ROOT, "<text x=\"16\" y=\"%.1f\" text-anchor=\"middle\" "
                + "transform=\"rotate(-90 16 %.1f)\">%s</text>%n", TOP + ph / 2.0, TOP + ph / 2.0, escape(yLabel)));
        int k = 0;
        for (Map.Entry<String, List<double[]>> s : series.entrySet()) {
            String color = COLORS[k % COLORS.length];
            StringBuilder path = new StringBuilder();
            for (double[] p : s.getValue()) {
                double x = LEFT + pw * (Math.log(p[0]) - lx0) / (lx1 - lx0);
                double y = TOP + ph - ph * p[1] / yMax;
                path.append(path.isEmpty() ? "M" : " L").append(String.format(Locale.ROOT, "%.1f %.1f", x, y));
                sb.append(String.format(Locale.ROOT, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"/>%n", x, y,
                        color));
            }
            sb.append(String.format(Locale.ROOT, "<path d=\"%s\" fill=\"none\" stroke=\"%s\" stroke-width=\"2\"/>%n",
                    path, color));
            double ly = TOP + 10 + 18 * k;
            sb.append(String.format(Locale.ROOT, "<line x1=\"%d\" y1=\"%.1f\" x2=\"%d\" y2=\"%.1f\" stroke=\"%s\" "
                    + "stroke-width=\"2\"/>%n", LEFT + pw + 12, ly, LEFT + pw + 32, ly, color));
            sb.append(text(LEFT + pw + 38, ly + 4, s.getKey(), "start", 11));
            k++;
        }
        sb.append("</svg>\n");
        return sb.toString();
    }

    private static double niceCeiling(double v) {
        double p = Math.pow(10, Math.floor(Math.log10(v)));
        for (double m : new double[] {1, 2, 2.5, 5, 10}) {
            if (m * p >= v) {
                return m * p;
            }
        }
        return 10 * p;
    }

    private static String format(double v) {
        return v == Math.rint(v) && Math.abs(v) < 1e9 ? String.valueOf((long) v)
                : String.format(Locale.ROOT, Math.abs(v) < 10 ? "%.2f" : "%.0f", v);
    }

    private static String text(double x, double y, String s, String anchor, int size) {
        return String.format(Locale.ROOT, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\" font-size=\"%d\">%s</text>%n",
                x, y, anchor, size, escape(s));
    }

    private static String escape(String s) {
        return s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;");
    }
}
