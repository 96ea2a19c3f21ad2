package org.jwarp.bench.experiments;

import java.io.IOException;
import java.io.PrintWriter;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.RecordComponent;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.jwarp.bench.experiment.Machine;
import org.jwarp.bench.json.JsonCodec;

/**
 * An experiment's data files, one row per measured point: {@code results.csv} and
 * {@code results.json} ({@code schema}, {@code mode}, the plan's fields, {@code notes},
 * {@code results}: one object per row). Both files carry the same rows in the same order.
 *
 * <p>A point is a record; its components are the columns, in order. A column's JSON name is the
 * component's name, its CSV name the same in snake case ({@code delayMs}: {@code delay_ms}) unless
 * {@link Column} says otherwise. In the CSV a double has {@link Column#decimals()} decimals (3
 * unless said) and is empty if NaN (unknown); other values are as {@link String#valueOf} writes
 * them. The JSON ({@link JsonCodec}) has the values themselves, NaN as {@code null}; its schemas
 * are in docs/json.md.
 */
public final class ExperimentData {

    /** A column's names and CSV decimals, where they are not the component's own. */
    @Retention(RetentionPolicy.RUNTIME)
    @Target(ElementType.RECORD_COMPONENT)
    public @interface Column {
        /** The CSV name; empty: the component's name in snake case. */
        String csv() default "";

        /** The JSON name; empty: the component's name. */
        String json() default "";

        /** Decimals of a double in the CSV. */
        int decimals() default 3;
    }

    private ExperimentData() {
    }

    /** The CSV header of points of type {@code point}. */
    public static String csvHeader(Class<? extends Record> point) {
        List<String> names = new ArrayList<>();
        for (RecordComponent c : point.getRecordComponents()) {
            names.add(csvName(c));
        }
        return String.join(",", names);
    }

    /**
     * Writes both files into {@code dir} (created if needed).
     *
     * @param plan the plan's fields, put after {@code schema} and {@code mode}
     */
    public static <P extends Record> List<Path> write(Path dir, String schema, String mode, Map<String, Object> plan,
                                               List<String> notes, Class<P> type, List<P> points) throws IOException {
        Files.createDirectories(dir);
        RecordComponent[] columns = type.getRecordComponents();
        StringBuilder csv = new StringBuilder(csvHeader(type)).append('\n');
        List<Map<String, Object>> objects = new ArrayList<>();
        for (P p : points) {
            List<String> cells = new ArrayList<>();
            Map<String, Object> o = new LinkedHashMap<>();
            for (RecordComponent c : columns) {
                Object v = value(c, p);
                cells.add(v instanceof Double d ? csvNumber(c, d) : String.valueOf(v));
                Column names = c.getAnnotation(Column.class);
                o.put(names == null || names.json().isEmpty() ? c.getName() : names.json(), v);
            }
            csv.append(String.join(",", cells)).append('\n');
            objects.add(o);
        }
        Map<String, Object> doc = new LinkedHashMap<>();
        doc.put("schema", schema);
        doc.put("mode", mode);
        doc.putAll(plan);
        doc.put("notes", Machine.withNote(notes));
        doc.put("results", objects);
        return new ArrayList<>(List.of(Files.writeString(dir.resolve("results.csv"), csv.toString()),
                Files.writeString(dir.resolve("results.json"), JsonCodec.write(doc) + "\n")));
    }

    /**
     * A plan's fields for {@code results.json}: its record's components by name and in order, but
     * {@code omitted}, then {@code more} in order.
     */
    @SafeVarargs
    public static Map<String, Object> planFields(Record plan, List<String> omitted, Map.Entry<String, ?>... more) {
        Map<String, Object> out = new LinkedHashMap<>();
        for (RecordComponent c : plan.getClass().getRecordComponents()) {
            if (!omitted.contains(c.getName())) {
                out.put(c.getName(), value(c, plan));
            }
        }
        for (Map.Entry<String, ?> e : more) {
            out.put(e.getKey(), e.getValue());
        }
        return out;
    }

    /** Prints the README's table lines, then where the files went: what a command shows at its end. */
    public static void printSummary(PrintWriter pw, Path dir, List<Path> files) throws IOException {
        pw.println();
        for (String l : Files.readAllLines(dir.resolve("README.md"))) {
            if (l.startsWith("|")) {
                pw.println(l);
            }
        }
        pw.println("wrote " + files.size() + " files to " + dir);
        pw.flush();
    }

    private static String csvName(RecordComponent c) {
        Column names = c.getAnnotation(Column.class);
        if (names != null && !names.csv().isEmpty()) {
            return names.csv();
        }
        return c.getName().replaceAll("([a-z0-9])([A-Z])", "$1_$2").toLowerCase(Locale.ROOT);
    }

    private static String csvNumber(RecordComponent c, double d) {
        if (!Double.isFinite(d)) {
            return "";
        }
        Column names = c.getAnnotation(Column.class);
        return String.format(Locale.ROOT, "%." + (names == null ? 3 : names.decimals()) + "f", d);
    }

    private static Object value(RecordComponent c, Record p) {
        try {
            // a row type need not be public (a test's, an experiment's nested record)
            java.lang.reflect.Method accessor = c.getAccessor();
            accessor.setAccessible(true);
            return accessor.invoke(p);
        } catch (IllegalAccessException | InvocationTargetException e) {
            throw new IllegalStateException("reading " + c.getName() + " of " + p, e);
        }
    }
}
