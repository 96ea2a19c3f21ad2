package org.jwarp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.jwarp.bench.experiment.RssReport;
import org.jwarp.bench.experiment.ToeReport;
import org.jwarp.bench.experiments.CpuImpactExperiment;
import org.jwarp.bench.experiments.ExperimentData;
import org.jwarp.bench.experiments.Experiments;
import org.jwarp.bench.experiments.IwarpVsTcpExperiment;
import org.jwarp.bench.experiments.LatencyExperiment;
import org.jwarp.bench.experiments.OverlapExperiment;
import org.jwarp.bench.experiments.ProgressExperiment;
import org.jwarp.bench.experiments.RendezvousExperiment;
import org.jwarp.bench.experiments.VerbsOptionsExperiment;
import org.jwarp.bench.report.ResultDirectory;

/** The data files every experiment writes: column names from the point records, numbers, NaN. */
class ExperimentDataTest {

    /** The CSV headers the report and earlier result directories know. */
    @Test
    void eachExperimentsHeaderIsTheOneItAlwaysHad() {
        assertEquals("part,transport,size,delay_ms,repeat,iterations,min_us,typical_us,p99_us,avg_us,poller_cpu_wait_ms",
                ExperimentData.csvHeader(LatencyExperiment.Point.class));
        assertEquals("part,stack,load_ms,delay_ms,repeat,fetches,median_us,p99_us,min_us",
                ExperimentData.csvHeader(ProgressExperiment.Point.class));
        assertEquals("part,stack,size,compute_ms,delay_ms,repeat,iterations,overlap,total_us,compute_us,roundtrip_us",
                ExperimentData.csvHeader(OverlapExperiment.Point.class));
        assertEquals("part,stack,size,delay_ms,repeat,clients,alone_ms,loaded_ms,slowdown,rx_mib_s",
                ExperimentData.csvHeader(CpuImpactExperiment.Point.class));
        assertEquals("part,protocol,size,delay_ms,repeat,messages,median_us,p99_us,min_us,server_app_us,"
                + "server_engine_us", ExperimentData.csvHeader(RendezvousExperiment.Point.class));
        assertEquals("part,stack,size,repeat,iterations,typical_us,p99_us,gbps,client_app_pct,client_engine_pct,"
                + "server_app_pct,server_engine_pct,client_soak_pct,server_soak_pct",
                ExperimentData.csvHeader(IwarpVsTcpExperiment.Point.class));
    }

    /** Every experiment writes the schema the registry gives it, which the report reads (and the report reads no other). */
    @Test
    void theReportReadsEveryExperimentsSchema() {
        assertEquals(List.of(RssReport.SCHEMA, LatencyExperiment.SCHEMA, ProgressExperiment.SCHEMA,
                OverlapExperiment.SCHEMA, CpuImpactExperiment.SCHEMA, RendezvousExperiment.SCHEMA,
                IwarpVsTcpExperiment.SCHEMA, VerbsOptionsExperiment.SCHEMA, ToeReport.SCHEMA), ResultDirectory.SCHEMAS);
        assertEquals(Experiments.schemas(), ResultDirectory.SCHEMAS);
    }

    record Row(String name, int count, double meanUs, @ExperimentData.Column(csv = "ratio_x", json = "theRatio",
            decimals = 5) double ratio, boolean ok) {
    }

    @Test
    void csvAndJsonCarryTheSameRows(@TempDir Path dir) throws Exception {
        List<Path> files = ExperimentData.write(dir, "jwarp-experiment-test/1", "quick", Map.of("sizes", List.of(1, 2)),
                List.of("a note"), Row.class, List.of(new Row("a", 3, 1.23456, 0.5, true),
                        new Row("b", 4, Double.NaN, 1.0 / 3, false)));
        assertEquals(List.of(dir.resolve("results.csv"), dir.resolve("results.json")), files);
        assertEquals(List.of("name,count,mean_us,ratio_x,ok", "a,3,1.235,0.50000,true", "b,4,,0.33333,false"),
                Files.readAllLines(dir.resolve("results.csv")));
        String json = Files.readString(dir.resolve("results.json"));
        assertTrue(json.indexOf("\"schema\"") < json.indexOf("\"mode\"") && json.indexOf("\"mode\"")
                < json.indexOf("\"sizes\"") && json.indexOf("\"sizes\"") < json.indexOf("\"notes\"")
                && json.indexOf("\"notes\"") < json.indexOf("\"results\""), json);
        assertTrue(json.contains("\"meanUs\": 1.23456") && json.contains("\"theRatio\": 0.5"), json);
        assertTrue(json.contains("\"meanUs\": null"), json);
        StrictJson.parse(json);
    }
}
