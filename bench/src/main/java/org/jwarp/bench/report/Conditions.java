package org.jwarp.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jwarp.bench.experiment.Machine;
import org.jwarp.bench.experiments.RunResult;

/**
 * The conditions of a run as small tables: the plan (mode and the plan's fields), the machine, CPUs
 * and placement the experiment noted, degen's measured link per delay, and the points flagged because
 * that link differed from the one asked for.
 */
final class Conditions {

    private static final Pattern CPUS = Pattern.compile("^(\\d+) CPUs[;:] (.*)$");
    private static final String FLAGGED = "FLAGGED: ";

    private Conditions() {
    }

    static void render(StringBuilder sb, RunResult e) {
        List<List<String>> run = new ArrayList<>();
        if (!e.mode().isEmpty()) {
            run.add(List.of("mode", e.mode()));
        }
        for (Map.Entry<String, String> p : e.plan().entrySet()) {
            run.add(List.of(field(p.getKey()), p.getValue()));
        }
        List<DegenLink> links = new ArrayList<>();
        List<String> flagged = new ArrayList<>();
        List<String> other = new ArrayList<>();
        for (String n : e.notes()) {
            Matcher cpus = CPUS.matcher(n);
            if (n.startsWith(Machine.NOTE)) {
                run.add(List.of("machine", n.substring(Machine.NOTE.length())));
            } else if (cpus.matches()) {
                run.add(List.of("CPUs", cpus.group(1)));
                for (String item : cpus.group(2).split("; ")) {
                    run.add(List.of("placement, threads", item));
                }
            } else if (DegenLink.isNote(n)) {
                links.addAll(DegenLink.parse(n));
            } else if (n.startsWith(FLAGGED)) {
                flagged.add(n.substring(FLAGGED.length()));
            } else {
                other.add(n);
            }
        }
        sb.append("<div class=\"conditions\"><h4>Conditions</h4>\n");
        Html.table(sb, "kv", List.of("", "this run"), run);
        if (!other.isEmpty()) {
            sb.append("<ul class=\"notes\">");
            for (String n : other) {
                sb.append("<li>").append(Html.esc(n)).append("</li>");
            }
            sb.append("</ul>\n");
        }
        if (!links.isEmpty()) {
            sb.append("<h4>The link degen gave, per delay</h4>\n");
            List<List<String>> rows = new ArrayList<>();
            for (DegenLink l : links) {
                rows.add(List.of(l.delayMs(), l.direction(), l.packets() < 0 ? "–" : Long.toString(l.packets()),
                        l.dropped() < 0 ? "–" : Long.toString(l.dropped()), l.p50(), l.p99(), l.p999(), l.max()));
            }
            Html.table(sb, "data", List.of("delay asked, ms", "direction", "packets", "dropped unasked",
                    "lateness p50", "p99", "p99.9", "max"), rows);
        }
        if (!flagged.isEmpty()) {
            sb.append("<ul class=\"flagged\">");
            for (String f : flagged) {
                sb.append("<li><b>Flagged:</b> ").append(Html.esc(f)).append("</li>");
            }
            sb.append("</ul>\n");
        } else if (!links.isEmpty()) {
            sb.append("<p class=\"same\">No delay flagged: degen's p99 lateness stayed within 100 µs and it dropped "
                    + "nothing unasked.</p>\n");
        }
        sb.append("</div>\n");
    }

    /** A plan field's JSON name for reading: {@code delaysMs} reads "delays, ms". */
    static String field(String json) {
        String unit = json.endsWith("Ms") ? ", ms" : json.endsWith("Us") ? ", µs" : "";
        String base = unit.isEmpty() ? json : json.substring(0, json.length() - 2);
        return base.replaceAll("([a-z0-9])([A-Z])", "$1 $2").toLowerCase(java.util.Locale.ROOT)
                .replaceAll("\\bcpu\\b", "CPU") + unit;
    }
}
