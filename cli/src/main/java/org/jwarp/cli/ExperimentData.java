package org.jwarp.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jwarp.bench.report.Json;

/**
 * An experiment's data files, one row per measured point: {@code results.csv} (a header of CSV
 * names, numbers with three decimals, an unknown number empty) and {@code results.json}
 * ({@code schema}, {@code mode}, the plan's fields, {@code notes}, {@code results}: one object per
 * row under the JSON names). Both files carry the same rows in the same order.
 *
 * @param csvNames  the columns' CSV names
 * @param jsonNames the same columns' JSON names
 */
record ExperimentData(List<String> csvNames, List<String> jsonNames) {

    ExperimentData {
        if (csvNames.size() != jsonNames.size()) {
            throw new IllegalArgumentException("CSV and JSON column lists differ in length");
        }
        csvNames = List.copyOf(csvNames);
        jsonNames = List.copyOf(jsonNames);
    }

    String csvHeader() {
        return String.join(",", csvNames);
    }

    /**
     * Writes both files into {@code dir} (created if needed).
     *
     * @param plan the plan's fields, put after {@code schema} and {@code mode}
     * @param rows each row's values in column order: strings, integers, doubles (NaN: unknown), booleans
     */
    List<Path> write(Path dir, String schema, String mode, Map<String, Object> plan, List<String> notes,
                     List<List<Object>> rows) throws IOException {
        Files.createDirectories(dir);
        StringBuilder csv = new StringBuilder(csvHeader()).append('\n');
        List<Map<String, Object>> objects = new ArrayList<>();
        for (List<Object> row : rows) {
            if (row.size() != csvNames.size()) {
                throw new IllegalArgumentException("a row of " + row.size() + " values for " + csvNames.size()
                        + " columns");
            }
            List<String> cells = new ArrayList<>();
            Map<String, Object> o = new LinkedHashMap<>();
            for (int i = 0; i < row.size(); i++) {
                Object v = row.get(i);
                cells.add(v instanceof Double d ? (Double.isFinite(d) ? String.format(Locale.ROOT, "%.3f", d) : "")
                        : String.valueOf(v));
                o.put(jsonNames.get(i), v);
            }
            csv.append(String.join(",", cells)).append('\n');
            objects.add(o);
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("schema", schema);
        doc.put("mode", mode);
        doc.putAll(plan);
        doc.put("notes", notes);
        doc.put("results", objects);
        return List.of(Files.writeString(dir.resolve("results.csv"), csv.toString()),
                Files.writeString(dir.resolve("results.json"), Json.write(doc) + "\n"));
    }

    /** Prints the README's table lines, then where the files went: what a command shows at its end. */
    static void printSummary(PrintWriter pw, Path dir, int files) throws IOException {
        pw.println();
        for (String l : Files.readAllLines(dir.resolve("README.md"))) {
            if (l.startsWith("|")) {
                pw.println(l);
            }
        }
        pw.println("wrote " + files + " files to " + dir);
        pw.flush();
    }
}
