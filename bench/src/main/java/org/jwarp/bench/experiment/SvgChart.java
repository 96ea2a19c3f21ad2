package org.jwarp.bench.experiment;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.knowm.xchart.VectorGraphicsEncoder;
import org.knowm.xchart.XYChart;
import org.knowm.xchart.XYChartBuilder;
import org.knowm.xchart.XYSeries;
import org.knowm.xchart.style.Styler;

/**
 * A line chart of an experiment, drawn by XChart and written as standalone SVG: series of (x, y)
 * points over a logarithmic x axis (connection counts, sizes, chunks) and a linear y axis from 0,
 * with a legend and axis labels. SVG, so that a report can inline it and any browser shows it.
 */
public final class SvgChart {

    private static final int W = 760;
    private static final int H = 440;
    /** Where the plot area begins (the y axis' title and labels), roughly. */
    private static final double PLOT_LEFT = 65;
    /** What the legend adds to its longest name: marker, padding, margins. */
    private static final double LEGEND_EXTRA = 100;
    private static final double TITLE_MARGIN = 10;

    private final String title;
    private final String xLabel;
    private final String yLabel;
    private final Map<String, List<double[]>> series = new LinkedHashMap<>();

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

    /**
     * XChart centres the title over the plot area, which ends where the legend begins, and lets a
     * long title run off the picture's left edge: a title wider than twice the distance from the
     * picture's edge to the plot area's centre is set in a smaller font instead.
     */
    private void fitTitle(XYChart chart) {
        java.awt.font.FontRenderContext frc = new java.awt.font.FontRenderContext(null, true, true);
        java.awt.Font legendFont = chart.getStyler().getLegendFont();
        double legend = 0;
        for (String name : series.keySet()) {
            legend = Math.max(legend, legendFont.getStringBounds(name, frc).getWidth());
        }
        double plotCentre = (PLOT_LEFT + W - (legend + LEGEND_EXTRA)) / 2;
        double room = 2 * plotCentre - 2 * TITLE_MARGIN;
        java.awt.Font font = chart.getStyler().getChartTitleFont();
        double width = font.getStringBounds(chart.getTitle(), frc).getWidth();
        if (width > room) {
            chart.getStyler().setChartTitleFont(font.deriveFont((float) (font.getSize2D() * room / width)));
        }
    }

    /** The chart as an SVG document. */
    public String render() {
        System.setProperty("java.awt.headless", "true");   // fonts are measured without a display
        XYChart chart = new XYChartBuilder().width(W).height(H).theme(Styler.ChartTheme.Matlab).title(title)
                .xAxisTitle(xLabel).yAxisTitle(yLabel).build();
        fitTitle(chart);
        chart.getStyler().setXAxisLogarithmic(true);
        chart.getStyler().setYAxisMin(0.0);
        chart.getStyler().setLegendPosition(Styler.LegendPosition.OutsideE);
        chart.getStyler().setChartBackgroundColor(java.awt.Color.WHITE);
        chart.getStyler().setDefaultSeriesRenderStyle(XYSeries.XYSeriesRenderStyle.Line);
        if (series.isEmpty()) {
            chart.addSeries("no data", new double[] {1}, new double[] {0});
        }
        for (Map.Entry<String, List<double[]>> e : series.entrySet()) {
            List<double[]> pts = new ArrayList<>(e.getValue());
            pts.sort((a, b) -> Double.compare(a[0], b[0]));
            double[] xs = new double[pts.size()];
            double[] ys = new double[pts.size()];
            for (int i = 0; i < xs.length; i++) {
                xs[i] = pts.get(i)[0];
                ys[i] = pts.get(i)[1];
            }
            chart.addSeries(e.getKey(), xs, ys);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try {
            VectorGraphicsEncoder.saveVectorGraphic(chart, out, VectorGraphicsEncoder.VectorGraphicsFormat.SVG);
        } catch (IOException e) {
            throw new UncheckedIOException("drawing the chart '" + title + "' failed", e);
        }
        // standalone: the DOCTYPE would send an XML reader to the W3C's site for the DTD
        return out.toString(StandardCharsets.UTF_8).replaceFirst("<!DOCTYPE[^>]*>\\s*", "");
    }
}
