package org.jwarp.bench.experiments;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Whose a latency run's tail is, from its rows: the pollers' wait for a CPU against the time the round trips stood still. */
class LatencyTailTest {

    private static final List<String> HEADER = List.of("part", "transport", "size", "delay_ms", "repeat", "iterations",
            "min_us", "typical_us", "p99_us", "avg_us", "poller_cpu_wait_ms");

    private static RunResult run(List<String> header, List<String[]> rows) {
        return new RunResult(Path.of("r"), "jwarp-experiment-latency/1", header, rows, Map.of(), "", "quick", Map.of(),
                List.of());
    }

    @Test
    void aTailCoveredByThePollersWaitForACpuIsTheMachines() {
        // 300 round trips, 1000 µs above the fastest on average one way: 600 ms stood still; pollers waited 500 ms
        String text = LatencyTail.of(run(HEADER, List.<String[]>of(
                new String[] {"size", "jwarp", "64", "0.000", "0", "300", "4.000", "4.500", "8000.000", "1004.000",
                        "500.000"},
                new String[] {"size", "sockets-busypoll", "64", "0.000", "0", "300", "3.000", "3.500", "30.000",
                        "3.600", "0.000"})));
        assertEquals(" The tail: 1 point(s) (jwarp) have a p99 of 1 ms or more; their round trips stood still 600 ms "
                + "in all beyond the fastest, and the two busy-polling threads waited 500 ms runnable without a CPU, so "
                + "the tail is the machine's (CPU contention: a poller that loses its CPU waits for the scheduler), not "
                + "jwarp's.", text);
    }

    @Test
    void aTailThePollersDidNotWaitForIsNotExplainedByTheMachine() {
        String text = LatencyTail.of(run(HEADER, List.<String[]>of(new String[] {"size", "jwarp", "64", "0.000", "0",
                "300", "4.000", "4.500", "8000.000", "1004.000", "10.000"})));
        assertEquals(" The tail: 1 point(s) (jwarp) have a p99 of 1 ms or more; their round trips stood still 600 ms "
                + "in all beyond the fastest, and the two busy-polling threads waited 10 ms runnable without a CPU, so "
                + "the tail is not explained by CPU contention: look at the stack.", text);
    }

    @Test
    void noTailOrAnOlderRunSaysNothing() {
        assertEquals("", LatencyTail.of(run(HEADER, List.<String[]>of(new String[] {"size", "jwarp", "64", "0.000",
                "0", "300", "4.000", "4.500", "30.000", "5.000", "0.000"}))));
        assertEquals("", LatencyTail.of(run(HEADER.subList(0, 9), List.<String[]>of(new String[] {"size", "jwarp",
                "64", "0.000", "0", "300", "4.000", "4.500", "8000.000"}))));
    }
}
