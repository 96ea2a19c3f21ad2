package org.jwarp.bench.experiments;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * One experiment's result directory as read back (by the report's {@code ResultDirectory}): the CSV's header and rows,
 * the plots, the README, and from {@code results.json} the mode, the plan's fields (as text) and
 * the run's notes.
 */
public record RunResult(Path dir, String schema, List<String> header, List<String[]> rows, Map<String, String> svgs,
                         String readme, String mode, Map<String, String> plan, List<String> notes) {

    /** The experiment's name: the schema's, e.g. {@code toe} of {@code jwarp-experiment-toe/1}. */
    public String name() {
        return schema.replaceFirst("^jwarp-experiment-", "").replaceFirst("/\\d+$", "");
    }

    /** The index of CSV column {@code name}. */
    public int column(String name) {
        int i = header.indexOf(name);
        if (i < 0) {
            throw new IllegalArgumentException(dir + "/results.csv has no column " + name);
        }
        return i;
    }
}
