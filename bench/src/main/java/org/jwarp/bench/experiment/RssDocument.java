package org.jwarp.bench.experiment;

import java.util.ArrayList;
import java.util.List;

/**
 * The RSS experiment's {@code results.json}, schema {@link RssReport#SCHEMA} (docs/json.md): the
 * plan and one row per point, figures of the receiving device.
 */
record RssDocument(String schema, String mode, int messageBytes, double secondsPerPoint,
                   int writesInFlightPerConnection, String moderation, List<String> notes, List<Row> results) {

    /** One point: its configuration and what the receiving engine threads did. */
    record Row(int engines, String steering, boolean moderated, int connections, double seconds, long bytes,
               double gbps, double wakeupsPerSecond, double fpdusPerWakeup, double engineCpuNsPerKiB,
               int enginesUsed) {
    }

    static RssDocument of(RssExperiment.Plan plan, List<RssExperiment.Result> results, String mode,
                          List<String> notes) {
        List<Row> rows = new ArrayList<>();
        for (RssExperiment.Result r : results) {
            RssExperiment.Point p = r.point();
            rows.add(new Row(p.engines(), RssReport.steering(p), p.moderated(), p.connections(), r.seconds(),
                    r.bytes(), r.gbps(), r.wakeupsPerSecond(), r.fpdusPerWakeup(), r.cpuNsPerKiB(), r.enginesUsed()));
        }
        return new RssDocument(RssReport.SCHEMA, mode, plan.size(), plan.seconds(), RssExperiment.DEPTH,
                "one event per " + RssExperiment.MODERATED.count() + " completions or "
                        + RssExperiment.MODERATED.periodMicros() + " us", notes, rows);
    }
}
