package org.jwarp.bench.experiment;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeSet;

/**
 * A line chart of an experiment as a small standalone SVG document: series of (x, y) points over
 * a logarithmic x axis (connection counts, sizes, chunks) and a linear y axis from 0 (or a
 * logarithmic one), with a title, axis titles, ticks and a legend. Every word is an SVG
 * {@code <text>} element, so a page that inlines many charts stays small, its text can be searched
 * and copied, and it prints sharp; series differ in colour and in marker shape, for black-and-white
 * print.
 */
public final class SvgChart {

    private static final int W = 720;
    private static final int H = 400;
    private static final int TITLE_SIZE = 15;
    private static final int LABEL_SIZE = 12;
    private static final int TICK_SIZE = 11;
    private static final int LEGEND_SIZE = 11;
    private static final double LEGEND_MAX = 250;
    /** The widest legend set beside the plot; a wider one goes below it. */
    private static final double LEGEND_BESIDE = 190;
    private static final int LEGEND_ROW = 17;
    private static final String[] COLOURS = {"#1f77b4", "#d62728", "#2ca02c", "#ff7f0e", "#9467bd", "#8c564b",
        "#e377c2", "#7f7f7f", "#bcbd22", "#17becf"};
    private static final int MARKERS = 4;

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final Map<String, List<double[]>> series = new LinkedHashMap<>();
    private boolean logY;

    public SvgChart(String title, String xLabel, String yLabel) {
        this.title = title;
        this.xLabel = xLabel;
        this.yLabel = yLabel;
    }

    /**
     * Adds a point to series {@code name} (x > 0). A y that is not finite (FPDUs per wake-up with no
     * wake-up) cannot be drawn and is left out; the tables keep it.
     */
    public SvgChart point(String name, double x, double y) {
        if (!(x > 0)) {
            throw new IllegalArgumentException("a point needs x > 0 on the logarithmic axis, not " + x);
        }
        if (!Double.isFinite(y)) {
            return this;
        }
        series.computeIfAbsent(name, k -> new ArrayList<>()).add(new double[] {x, y});
        return this;
    }

    /** A logarithmic y axis (decades) instead of a linear one from 0; points with y <= 0 are then left out. */
    public SvgChart logY() {
        logY = true;
        return this;
    }

    /** The chart as an SVG document. */
    public String render() {
        TreeSet<Double> xs = new TreeSet<>();
        TreeSet<Double> ys = new TreeSet<>();
        Map<String, List<double[]>> drawn = new LinkedHashMap<>();
        for (Map.Entry<String, List<double[]>> e : series.entrySet()) {
            List<double[]> pts = new ArrayList<>();
            for (double[] p : e.getValue()) {
                if (!logY || p[1] > 0) {
                    pts.add(p);
                    xs.add(p[0]);
                    ys.add(p[1]);
                }
            }
            pts.sort((a, b) -> Double.compare(a[0], b[0]));
            drawn.put(e.getKey(), pts);
        }
        ChartAxis x = ChartAxis.log(xs, true);
        ChartAxis y = logY ? ChartAxis.log(ys, false) : ChartAxis.linearFromZero(ys.isEmpty() ? 1 : ys.last());

        double legendWidth = 0;
        for (String name : drawn.keySet()) {
            legendWidth = Math.max(legendWidth, SvgText.width(name, LEGEND_SIZE));
        }
        legendWidth = Math.min(LEGEND_MAX, legendWidth + 30);
        // a wide legend goes below the plot, in two columns, so that the plot keeps the picture's width
        boolean below = legendWidth > LEGEND_BESIDE;
        int legendRows = below ? (drawn.size() + 1) / 2 : 0;
        int height = H + (below ? legendRows * LEGEND_ROW + 6 : 0);
        List<String> titleLines = SvgText.wrap(title, TITLE_SIZE, W - 20);
        double titleSize = Math.min(TITLE_SIZE, TITLE_SIZE * (W - 20) / maxWidth(titleLines, TITLE_SIZE));
        double tickWidth = 0;
        for (double t : y.ticks()) {
            tickWidth = Math.max(tickWidth, SvgText.width(y.label(t), TICK_SIZE));
        }
        double left = 28 + tickWidth + 8;
        double right = W - (drawn.isEmpty() || below ? 15 : legendWidth + 25);
        double top = 12 + titleLines.size() * (titleSize + 4) + 8;
        double bottom = H - 48;

        StringBuilder sb = new StringBuilder();
        sb.append(String.format(Locale.ROOT, "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 %d %d\" "
                + "width=\"%d\" height=\"%d\" font-family=\"sans-serif\" role=\"img\">%n", W, height, W, height));
        sb.append("<title>").append(SvgText.escape(title)).append("</title>\n");
        sb.append(String.format(Locale.ROOT, "<rect width=\"%d\" height=\"%d\" fill=\"#fff\"/>%n", W, height));
        double ty = 12 + titleSize;
        for (String line : titleLines) {
            text(sb, W / 2.0, ty, titleSize, "middle", "font-weight=\"bold\"", line);
            ty += titleSize + 4;
        }
        axes(sb, x, y, left, right, top, bottom);
        if (drawn.isEmpty() || xs.isEmpty()) {
            text(sb, (left + right) / 2, (top + bottom) / 2, LABEL_SIZE, "middle", "fill=\"#777\"", "no data");
        }
        int i = 0;
        double ly = below ? H + 4 : top + 6;
        double step = drawn.isEmpty() ? 0 : below ? LEGEND_ROW : Math.min(LEGEND_ROW, (H - 10 - ly) / drawn.size());
        for (Map.Entry<String, List<double[]>> e : drawn.entrySet()) {
            String colour = COLOURS[i % COLOURS.length];
            StringBuilder d = new StringBuilder();
            for (double[] p : e.getValue()) {
                d.append(d.isEmpty() ? "M" : "L").append(SvgText.num(x.place(p[0], left, right))).append(' ')
                        .append(SvgText.num(y.place(p[1], bottom, top)));
            }
            if (!d.isEmpty()) {
                sb.append("<path fill=\"none\" stroke=\"").append(colour).append("\" stroke-width=\"1.8\" d=\"")
                        .append(d).append("\"/>\n");
            }
            sb.append("<g fill=\"").append(colour).append("\">");
            for (double[] p : e.getValue()) {
                marker(sb, i, x.place(p[0], left, right), y.place(p[1], bottom, top));
            }
            sb.append("</g>\n");
            // the legend: a line and a marker, then the name, one entry per series
            double lx = below ? left + (i % 2) * (W - left) / 2 : right + 15;
            sb.append(String.format(Locale.ROOT, "<path stroke=\"%s\" stroke-width=\"1.8\" d=\"M%s %sH%s\"/>", colour,
                    SvgText.num(lx), SvgText.num(ly), SvgText.num(lx + 20)));
            sb.append("<g fill=\"").append(colour).append("\">");
            marker(sb, i, lx + 10, ly);
            sb.append("</g>");
            double size = Math.min(LEGEND_SIZE, LEGEND_SIZE * (LEGEND_MAX - 30) / SvgText.width(e.getKey(), LEGEND_SIZE));
            text(sb, lx + 25, ly + size * 0.35, size, "start", null, e.getKey());
            ly += below && i % 2 == 0 ? 0 : step;
            i++;
        }
        sb.append("</svg>\n");
        return sb.toString();
    }

    private void axes(StringBuilder sb, ChartAxis x, ChartAxis y, double left, double right, double top, double bottom) {
        sb.append(String.format(Locale.ROOT, "<rect x=\"%s\" y=\"%s\" width=\"%s\" height=\"%s\" fill=\"none\" "
                + "stroke=\"#444\"/>%n", SvgText.num(left), SvgText.num(top), SvgText.num(right - left),
                SvgText.num(bottom - top)));
        StringBuilder grid = new StringBuilder();
        double lastEnd = Double.NEGATIVE_INFINITY;
        for (double t : x.ticks()) {
            double px = x.place(t, left, right);
            grid.append("M").append(SvgText.num(px)).append(' ').append(SvgText.num(top)).append("V")
                    .append(SvgText.num(bottom));
            String label = x.label(t);
            double half = SvgText.width(label, TICK_SIZE) / 2;
            if (px - half > lastEnd + 4) {   // a label that would overlap the one before is left out
                text(sb, px, bottom + 15, TICK_SIZE, "middle", null, label);
                lastEnd = px + half;
            }
        }
        for (double t : y.ticks()) {
            double py = y.place(t, bottom, top);
            grid.append("M").append(SvgText.num(left)).append(' ').append(SvgText.num(py)).append("H")
                    .append(SvgText.num(right));
            text(sb, left - 5, py + TICK_SIZE * 0.35, TICK_SIZE, "end", null, y.label(t));
        }
        sb.append("<path stroke=\"#ddd\" stroke-width=\"0.8\" d=\"").append(grid).append("\"/>\n");
        text(sb, (left + right) / 2, H - 12, LABEL_SIZE, "middle", null, xLabel);
        double cy = (top + bottom) / 2;
        text(sb, 16, cy, LABEL_SIZE, "middle", String.format(Locale.ROOT, "transform=\"rotate(-90 16 %s)\"",
                SvgText.num(cy)), yLabel);
    }

    /** Marker {@code i}: circle, square, triangle, diamond, in turn. */
    private static void marker(StringBuilder sb, int i, double x, double y) {
        String cx = SvgText.num(x);
        String cy = SvgText.num(y);
        switch (i % MARKERS) {
            case 0 -> sb.append("<circle cx=\"").append(cx).append("\" cy=\"").append(cy).append("\" r=\"3.2\"/>");
            case 1 -> sb.append("<rect x=\"").append(SvgText.num(x - 3)).append("\" y=\"").append(SvgText.num(y - 3))
                    .append("\" width=\"6\" height=\"6\"/>");
            case 2 -> sb.append("<path d=\"M").append(cx).append(' ').append(SvgText.num(y - 4))
                    .append("l3.6 6.5h-7.2z\"/>");
            default -> sb.append("<path d=\"M").append(cx).append(' ').append(SvgText.num(y - 4.2))
                    .append("l4 4.2-4 4.2-4-4.2z\"/>");
        }
    }

    private static void text(StringBuilder sb, double x, double y, double size, String anchor, String extra,
                             String text) {
        sb.append("<text x=\"").append(SvgText.num(x)).append("\" y=\"").append(SvgText.num(y))
                .append("\" font-size=\"").append(SvgText.num(size)).append('"');
        if (!anchor.equals("start")) {
            sb.append(" text-anchor=\"").append(anchor).append('"');
        }
        if (extra != null) {
            sb.append(' ').append(extra);
        }
        sb.append('>').append(SvgText.escape(text)).append("</text>\n");
    }

    private static double maxWidth(List<String> lines, double size) {
        double w = 1;
        for (String l : lines) {
            w = Math.max(w, SvgText.width(l, size));
        }
        return w;
    }
}
