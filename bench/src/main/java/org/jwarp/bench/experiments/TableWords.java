package org.jwarp.bench.experiments;

import java.util.Map;
import java.util.Set;

/**
 * How the report reads an experiment's own columns and parts where the general rules (a unit from
 * the name's suffix, {@code typical_us}: "typical, µs"; the parts {@code size} and {@code delay})
 * do not make words a reader takes in.
 *
 * @param headers     a column's CSV name → its header
 * @param parts       a value of the {@code part} column → the heading of its table
 * @param sizeColumns the columns besides {@code size} that hold a size in bytes (shown as KiB, MiB)
 */
public record TableWords(Map<String, String> headers, Map<String, String> parts, Set<String> sizeColumns) {

    /** No words of its own. */
    public static final TableWords NONE = new TableWords(Map.of(), Map.of(), Set.of());

    public TableWords {
        headers = Map.copyOf(headers);
        parts = Map.copyOf(parts);
        sizeColumns = Set.copyOf(sizeColumns);
    }

    /** These headers. */
    public static TableWords headers(Map<String, String> headers) {
        return new TableWords(headers, Map.of(), Set.of());
    }

    /** These part headings. */
    public static TableWords parts(Map<String, String> parts) {
        return new TableWords(Map.of(), parts, Set.of());
    }
}
