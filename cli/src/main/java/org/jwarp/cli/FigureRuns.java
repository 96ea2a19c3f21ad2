package org.jwarp.cli;

import java.util.ArrayList;
import java.util.List;
import org.jwarp.bench.run.LoopbackRun;

/**
 * A figure over several runs as {@code jwarp demo} and {@code jwarp bench} write it in their JSON:
 * the median, the quartiles, and every run (docs/json.md).
 */
record FigureRuns(double median, double lower, double upper, List<Double> runs) {

    static FigureRuns of(double[] xs) {
        LoopbackRun.Spread sp = LoopbackRun.Spread.of(xs);
        List<Double> all = new ArrayList<>();
        for (double x : xs) {
            all.add(x);
        }
        return new FigureRuns(sp.median(), sp.lower(), sp.upper(), all);
    }
}
