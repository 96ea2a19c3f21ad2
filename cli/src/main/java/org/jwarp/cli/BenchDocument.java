package org.jwarp.cli;

import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;

/**
 * {@code jwarp bench --json}, schema {@link BenchCommand#JSON_SCHEMA} (docs/json.md): how the runs
 * were made, and one row per case and variant.
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
record BenchDocument(String schema, String mode, String threads, int pairs, int seconds, int rounds, int cpus,
                     boolean verified, double elapsedS, List<Row> rows) {

    /**
     * One case over one variant (a jwarp socket I/O layer or a baseline): its main and second
     * figures over the pairs, and the per-pair ratios to the baselines where there are any.
     */
    @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
    record Row(@JsonProperty("case") String caseName, String label, String variant, String unit, FigureRuns figure,
               String secondUnit, FigureRuns second, @JsonInclude(JsonInclude.Include.NON_NULL) FigureRuns ratio,
               @JsonInclude(JsonInclude.Include.NON_NULL) FigureRuns ratioToC) {
    }
}
