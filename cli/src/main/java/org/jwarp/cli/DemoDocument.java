package org.jwarp.cli;

import java.util.List;

/**
 * {@code jwarp demo --json}, schema {@link DemoCommand#JSON_SCHEMA} (docs/json.md): how jwarp and
 * the sockets were set up, and one row per line of the table.
 */
record DemoDocument(String schema, String jwarp, String sockets, String threads, int pairs, boolean verified,
                    double seconds, List<Row> rows) {

    /** One line of the table: a test and size, both transports' figures, and the per-pair ratios. */
    record Row(String test, int bytes, String unit, FigureRuns jwarp, FigureRuns sockets, FigureRuns ratio) {
    }
}
