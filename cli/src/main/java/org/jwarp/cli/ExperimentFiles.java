package org.jwarp.cli;

import java.io.IOException;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.jwarp.bench.report.Json;

/**
 * What every experiment writes besides its plots: {@code results.csv}, {@code results.json} (the
 * plan and notes, then one object per point named as the point's record components) and
 * {@code README.md}; and what its command prints at the end.
 */
final class ExperimentFiles {

    private ExperimentFiles() {
    }

    /** Writes results.csv and results.json into {@code dir} (created if needed); {@code doc} gets the rows. */
    static <P extends Record> List<Path> data(Path dir, String csvHeader, List<P> points, Function<P, String> csvLine,
                                              Map<String, Object> doc) throws IOException {
        Files.createDirectories(dir);
        StringBuilder csv = new StringBuilder(csvHeader).append('\n');
        for (P p : points) {
            csv.append(csvLine.apply(p)).append('\n');
        }
        List<Path> files = new ArrayList<>();
        files.add(Files.writeString(dir.resolve("results.csv"), csv.toString()));
        List<Map<String, Object>> rows = new ArrayList<>();
        for (P p : points) {
            rows.add(row(p));
        }
        doc.put("results", rows);
        files.add(Files.writeString(dir.resolve("results.json"), Json.write(doc) + "\n"));
        return files;
    }

    /** A point as a JSON object: its record components, in order. */
    static Map<String, Object> row(Record p) {
        Map<String, Object> row = new LinkedHashMap<>();
        for (RecordComponent c : p.getClass().getRecordComponents()) {
            try {
                row.put(c.getName(), c.getAccessor().invoke(p));
            } catch (IllegalAccessException | InvocationTargetException e) {
                throw new IllegalStateException("reading " + c.getName() + " of " + p, e);
            }
        }
        return row;
    }

    /** The start of results.json: schema, mode, then the plan's entries and the notes. */
    static Map<String, Object> doc(String schema, String mode, Map<String, Object> plan, List<String> notes) {
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("schema", schema);
        doc.put("mode", mode);
        doc.putAll(plan);
        doc.put("notes", notes);
        return doc;
    }

    /** Prints the README's table lines and where the files went. */
    static void summary(PrintWriter pw, Path dir, List<Path> files) {
        pw.println();
        try {
            Files.readString(dir.resolve("README.md")).lines().filter(l -> l.startsWith("|")).forEach(pw::println);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        pw.println("wrote " + files.size() + " files to " + dir);
        pw.flush();
    }
}
