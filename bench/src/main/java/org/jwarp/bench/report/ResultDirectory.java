package org.jwarp.bench.report;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.jwarp.bench.experiments.Experiments;
import org.jwarp.bench.experiments.RunResult;
import org.jwarp.bench.json.JsonCodec;

/**
 * Reads what a {@code jwarp experiment} run left in its directory: {@code results.json} (which names
 * the experiment by its schema), {@code results.csv}, the SVG plots and {@code README.md}.
 */
public final class ResultDirectory {

    /** The experiments' schemas this jwarp reads (docs/json.md). */
    public static final List<String> SCHEMAS = Experiments.schemas();

    private ResultDirectory() {
    }

    /**
     * Reads a result directory.
     *
     * @throws IllegalArgumentException one line, saying what is missing or what the directory holds instead
     */
    public static RunResult read(Path dir) throws IOException {
        if (!Files.isDirectory(dir)) {
            throw new IllegalArgumentException(dir + " is not a directory; give the output directory of a 'jwarp "
                    + "experiment' run");
        }
        Path json = dir.resolve("results.json");
        Path csv = dir.resolve("results.csv");
        if (!Files.isRegularFile(json) || !Files.isRegularFile(csv)) {
            throw new IllegalArgumentException(dir + " has no results.json and results.csv: it is not the output of "
                    + "'jwarp experiment'");
        }
        JsonNode doc = JsonCodec.read(Files.readString(json), json.toString(), SCHEMAS);
        String schema = doc.get("schema").asText();
        Map<String, String> plan = new LinkedHashMap<>();
        List<String> notes = new ArrayList<>();
        for (Map.Entry<String, JsonNode> f : doc.properties()) {
            switch (f.getKey()) {
                case "schema", "mode", "results" -> { }
                case "notes" -> f.getValue().forEach(n -> notes.add(n.asText()));
                default -> {
                    // the paper's numbers are no condition of the run; the report sets them beside ours
                    if (!f.getKey().startsWith("paper")) {
                        plan.put(f.getKey(), planValue(f.getValue()));
                    }
                }
            }
        }
        List<String> lines = Files.readAllLines(csv);
        if (lines.isEmpty()) {
            throw new IllegalArgumentException(csv + " is empty");
        }
        List<String[]> rows = new ArrayList<>();
        for (String l : lines.subList(1, lines.size())) {
            if (!l.isBlank()) {
                rows.add(l.split(",", -1));
            }
        }
        Map<String, String> svgs = new TreeMap<>();
        try (Stream<Path> files = Files.list(dir)) {
            for (Path p : files.filter(f -> f.getFileName().toString().endsWith(".svg")).sorted().toList()) {
                svgs.put(p.getFileName().toString(), Files.readString(p));
            }
        }
        Path readme = dir.resolve("README.md");
        return new RunResult(dir, schema, Arrays.asList(lines.getFirst().split(",", -1)), rows, svgs,
                Files.isRegularFile(readme) ? Files.readString(readme) : "", doc.path("mode").asText(""), plan, notes);
    }

    /**
     * A plan field as text: a value as it is, a list's items joined by ", " (or "; " if they are
     * objects), an object's values joined by ": " (a place: its name, then what it is).
     */
    private static String planValue(JsonNode v) {
        if (v.isArray()) {
            List<String> items = new ArrayList<>();
            v.forEach(i -> items.add(planValue(i)));
            return String.join(v.size() > 0 && v.get(0).isObject() ? "; " : ", ", items);
        }
        if (v.isObject()) {
            List<String> values = new ArrayList<>();
            v.forEach(i -> values.add(planValue(i)));
            return String.join(": ", values);
        }
        return v.asText();
    }
}
