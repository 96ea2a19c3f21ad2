package org.jwarp.bench.report;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.jwarp.bench.experiments.Experiment;
import org.jwarp.bench.experiments.Experiments;
import org.jwarp.bench.experiments.Paper;
import org.jwarp.bench.experiments.RunResult;
import org.jwarp.bench.experiments.Verdict;

/**
 * {@code jwarp report}: one self-contained HTML page from experiment result directories. At the
 * top a summary, one line per experiment: the figure it reproduces, reproduced / partly / not, and
 * the numbers that say so. Then per experiment: the question the paper asked, the verdict with the
 * numbers it rests on, the paper's numbers beside ours where the paper gives numbers, the shape the
 * paper found, our plots (the directory's SVG files, inlined), the data as readable tables and the
 * run's conditions as small tables. No resource comes from elsewhere; a small inline script
 * records, in the page itself, what the browser drew ({@code data-*} attributes on {@code body}),
 * so that a headless browser can check the rendering.
 */
public final class HtmlReport {

    private static final String STYLE = "body{font-family:sans-serif;max-width:1100px;margin:2em auto;padding:0 1em;"
            + "color:#222;line-height:1.4}h2{border-bottom:1px solid #ccc;padding-bottom:.2em;margin-top:2em}"
            + "h4{margin:1em 0 .3em}table{border-collapse:collapse;font-size:13px;margin:.3em 0}"
            + "td,th{border:1px solid #ccc;padding:2px 7px;text-align:right;vertical-align:top}thead th{background:#f3f3f3;"
            + "text-align:center}tbody th{text-align:left;font-weight:normal}td.t,table.kv td{text-align:left}"
            + ".badge{display:inline-block;padding:1px 8px;border-radius:3px;font-weight:bold;font-size:12px;"
            + "white-space:nowrap}.reproduced{background:#d8f0c8;color:#1d5a0c}.partly{background:#fbeeb8;color:#6b5000}"
            + ".not{background:#f8d0cc;color:#8a1c10}.none{background:#e4e4e4;color:#444}"
            + ".verdict{padding:.5em .7em;background:#f7f8f2;border-left:4px solid #8a3}"
            + ".plot{display:inline-block;margin:.3em}.plot svg{max-width:100%;height:auto}"
            + ".scroll{max-height:420px;overflow:auto}.same{font-size:13px;color:#555;margin:.2em 0}"
            + ".flagged{color:#8a1c10}.notes{font-size:13px}pre{background:#f7f7f7;padding:.5em;overflow:auto;"
            + "font-size:12px}table.summary td{text-align:left}"
            + "@media print{body{max-width:none;margin:0}.scroll{max-height:none;overflow:visible}"
            + "section{break-before:page}.plot,table{break-inside:avoid}details{display:none}}";

    /**
     * The rendering check: every plot drew something, no word of a plot runs outside it, every
     * verdict is there, and how long after navigation the page was laid out and checked.
     */
    private static final String CHECK = "<script>(function(){var plots=document.querySelectorAll('.plot svg');"
            + "var drawn=0,outside=0;plots.forEach(function(s){try{var b=s.getBBox();if(b.width>0&&b.height>0&&"
            + "s.querySelectorAll('path,circle,rect,text').length>0){drawn++;}var v=s.viewBox.baseVal;"
            + "s.querySelectorAll('text').forEach(function(t){var r=t.getBBox();var m=t.getCTM();"
            + "var w=r.width,h=r.height,x=r.x,y=r.y;if(t.getAttribute('transform')){w=r.height;h=r.width;x=-1;y=0;}"
            + "if(!t.getAttribute('transform')&&(x<v.x-1||x+w>v.x+v.width+1||y<v.y-1||y+h>v.y+v.height+1)){outside++;}"
            + "});}catch(x){}});var d=document.body;d.setAttribute('data-plots',plots.length);"
            + "d.setAttribute('data-drawn',drawn);d.setAttribute('data-text-outside',outside);"
            + "d.setAttribute('data-summary-rows',document.querySelectorAll('table.summary tbody tr').length);"
            + "d.setAttribute('data-verdicts',document.querySelectorAll('section .verdict').length);"
            + "d.setAttribute('data-ready-ms',Math.round(performance.now()));})();</script>\n";

    private HtmlReport() {
    }

    /** The page for {@code experiments}, in order. */
    public static String render(List<RunResult> experiments) {
        List<Verdict> verdicts = new ArrayList<>();
        for (RunResult e : experiments) {
            verdicts.add(known(e).verdict(e));
        }
        StringBuilder sb = new StringBuilder();
        sb.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>jwarp: the papers' "
                + "experiments</title>\n<style>").append(STYLE).append("</style></head>\n<body>\n");
        sb.append("<h1>jwarp: the papers' experiments</h1>\n<p>").append(experiments.size())
                .append(" result director").append(experiments.size() == 1 ? "y" : "ies")
                .append(". Each verdict is computed from the run's data; the data is in each directory's results.csv "
                        + "and results.json.</p>\n");
        summary(sb, experiments, verdicts);
        for (int i = 0; i < experiments.size(); i++) {
            section(sb, experiments.get(i), verdicts.get(i));
        }
        sb.append(CHECK).append("</body></html>\n");
        return sb.toString();
    }

    private static void summary(StringBuilder sb, List<RunResult> experiments, List<Verdict> verdicts) {
        sb.append("<h2>Summary</h2>\n<table class=\"summary\"><thead><tr><th>experiment</th><th>reproduces</th>"
                + "<th>verdict</th><th>on the numbers</th></tr></thead><tbody>\n");
        for (int i = 0; i < experiments.size(); i++) {
            RunResult e = experiments.get(i);
            Verdict v = verdicts.get(i);
            sb.append("<tr><th scope=\"row\"><a href=\"#").append(Html.esc(e.name())).append("\">")
                    .append(Html.esc(e.name())).append("</a></th><td>").append(Html.esc(known(e).paper().figure()))
                    .append("</td><td>").append(badge(v)).append("</td><td>").append(Html.esc(v.headline()))
                    .append("</td></tr>\n");
        }
        sb.append("</tbody></table>\n");
    }

    private static String badge(Verdict v) {
        return "<span class=\"badge " + v.outcome().css() + "\">" + v.outcome().label() + "</span>";
    }

    private static void section(StringBuilder sb, RunResult e, Verdict v) {
        Paper p = known(e).paper();
        sb.append("<section class=\"experiment\" id=\"").append(Html.esc(e.name())).append("\">\n<h2>")
                .append(Html.esc(p.title())).append("</h2>\n");
        sb.append("<p><b>The question.</b> ").append(Html.esc(p.question())).append("</p>\n");
        sb.append("<p class=\"verdict\" data-outcome=\"").append(v.outcome().css()).append("\">").append(badge(v))
                .append(' ').append(Html.esc(v.text())).append("</p>\n");
        sb.append("<p><b>The paper found.</b> ").append(Html.esc(p.shape())).append("</p>\n");
        if (!v.comparisonHeader().isEmpty()) {
            sb.append("<h4>The paper's numbers beside ours</h4>\n");
            Html.table(sb, "comparison", v.comparisonHeader(), v.comparison());
        }
        for (Map.Entry<String, String> svg : e.svgs().entrySet()) {
            sb.append("<div class=\"plot\" title=\"").append(Html.esc(svg.getKey())).append("\">")
                    .append(inline(svg.getValue())).append("</div>\n");
        }
        sb.append("<h3>The data</h3>\n");
        ResultTable.render(sb, e, known(e).tableWords());
        Conditions.render(sb, e);
        sb.append("<details><summary>The run's README</summary><pre>").append(Html.esc(e.readme()))
                .append("</pre></details>\n</section>\n");
    }

    /** The experiment that wrote {@code run}: ResultDirectory reads only the registry's schemas. */
    private static Experiment known(RunResult run) {
        return Experiments.named(run.name()).orElseThrow(() -> new IllegalArgumentException(run.dir()
                + " holds results of an experiment this jwarp does not know: " + run.schema()));
    }

    /** An SVG document as an inline element: whatever comes before {@code <svg} (an XML prolog) goes. */
    private static String inline(String svg) {
        int at = svg.indexOf("<svg");
        return at < 0 ? "" : svg.substring(at);
    }

    /** Reads every directory and writes the page to {@code out}. */
    public static Path write(List<Path> dirs, Path out) throws IOException {
        List<RunResult> list = new ArrayList<>();
        for (Path d : dirs) {
            list.add(ResultDirectory.read(d));
        }
        Path parent = out.toAbsolutePath().getParent();
        if (parent != null) {
            Files.createDirectories(parent);
        }
        return Files.writeString(out, render(list), StandardCharsets.UTF_8);
    }
}
