package org.jwarp.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Path;
import java.util.List;
import org.jwarp.engine.counters.CounterFile;
import org.jwarp.engine.counters.CounterFileReader.Group;
import org.jwarp.engine.counters.CounterFileReader.Snapshot;
import org.jwarp.engine.provider.JwarpConfig;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code jwarp stat}: what it prints for a device publishing in this JVM, and its one-line errors. */
class StatCommandTest {

    static final long PID = ProcessHandle.current().pid();

    @TempDir
    Path dir;

    RdmaDevice openPublishing() {
        System.setProperty(CounterFile.DIRECTORY_PROPERTY, dir.toString());
        try {
            return RdmaDevice.open(DeviceConfig.builder().provider(JwarpConfig.builder()
                    .threadingMode(JwarpConfig.ThreadingMode.INVOKER).build()).build());
        } finally {
            System.clearProperty(CounterFile.DIRECTORY_PROPERTY);
        }
    }

    @Test
    void listsTheProcessWithItsDeviceEngineAndQueuePairCounters() {
        try (RdmaDevice dev = openPublishing()) {
            CompletionQueue cq = dev.createCq(4, null);
            QueuePair qp = dev.createQp(dev.allocPd(), QpInitAttr.builder(cq, cq).build());
            String qpScope = "qp-" + qp.qpNum();
            String deviceRow = "  device\\s+0\\s+0\\s+0\\s+0\\s+\\d+\\s+\\d+\\s+0\\s+0\\s+0\\s+0\\s+0\\s+0"
                    + "\\s+\\d+\\s+1\\s+128\\s+0\\s+-\\s+0\\s+-";
            // the QP's row and the device's count of it are published by different threads: wait for both
            JwarpCommandTest.Run r = awaitOutput(out -> out.contains(qpScope)
                    && out.lines().anyMatch(l -> l.matches(deviceRow)), "stat", "--dir", dir.toString());
            assertEquals(0, r.exit(), r.err());
            List<String> lines = r.out().lines().toList();
            assertTrue(lines.getFirst().matches("pid " + PID + "  device \\d+  jwarp invoker  up .*  published .* ago"),
                    lines.getFirst());
            assertTrue(lines.get(1).matches("  scope\\s+fpdus\\.tx\\s+bytes\\.tx\\s+fpdus\\.rx\\s+bytes\\.rx\\s+doorbells"
                    + "\\s+wakeups\\s+terminates\\.tx\\s+terminates\\.rx\\s+crc\\.errors\\s+rx\\.direct\\.bytes"
                    + "\\s+socket\\.writes\\s+socket\\.reads\\s+idle\\.parks\\s+qps\\s+rss\\.entries\\s+rss\\.moves\\.in\\s+cpu\\.ns\\s+qps\\.parked\\s+setups\\.refused"), lines.get(1));
            // one QP (not connected: none parked), the whole indirection table (128 entries) on the one engine, no moves
            assertTrue(lines.get(2).matches(deviceRow), lines.get(2));
            assertTrue(lines.get(3).startsWith("  engine-0 "), lines.get(3));
            assertTrue(lines.get(4).matches("  cm(\\s+-){18}\\s+0"), lines.get(4));
            assertTrue(lines.get(5).matches("  " + qpScope + "(\\s+0){12}(\\s+-){7}"), lines.get(5));
            qp.close();
        }
        JwarpCommandTest.Run gone = JwarpCommandTest.run("stat", "--dir", dir.toString());
        assertEquals(1, gone.exit());
        assertEquals("jwarp stat: no jwarp processes (no counters files in " + dir + ")", gone.err().strip());
    }

    @Test
    void jsonForOnePidAndRepeatedPrints() {
        try (RdmaDevice dev = openPublishing()) {
            JwarpCommandTest.Run r = JwarpCommandTest.run("stat", String.valueOf(PID), "--json", "--dir", dir.toString(),
                    "--watch", "0.05", "--count", "2");
            assertEquals(0, r.exit(), r.err());
            List<String> lines = r.out().lines().toList();
            assertEquals(2, lines.size(), r.out());
            for (String l : lines) {
                assertTrue(l.startsWith("{\"schema\":\"jwarp-stat/1\",\"time\":"), l);
                assertTrue(l.contains("\"processes\":[{\"pid\":" + PID + ",\"startMillis\":"), l);
                assertTrue(l.contains("\"label\":\"jwarp invoker\""), l);
                assertTrue(l.contains("\"groups\":{\"device\":{\"fpdus.tx\":0,\"bytes.tx\":0,"), l);
                assertTrue(l.endsWith("}}]}]}"), l);
            }
        }
    }

    @Test
    void badInputIsOneLine() {
        JwarpCommandTest.Run none = JwarpCommandTest.run("stat", "999999999", "--dir", dir.toString());
        assertEquals(1, none.exit());
        assertEquals("jwarp stat: no jwarp process with pid 999999999", none.err().strip());
        try (RdmaDevice dev = openPublishing()) {
            JwarpCommandTest.Run other = JwarpCommandTest.run("stat", "999999999", "--dir", dir.toString());
            assertEquals(1, other.exit());
            assertEquals("jwarp stat: no jwarp process with pid 999999999 (jwarp processes: " + PID + ")",
                    other.err().strip());
        }
        for (String[] args : new String[][] {{"stat", "--watch", "0"}, {"stat", "--watch", "x"}, {"stat", "--count", "3"},
                {"stat", "--watch", "1", "--count", "0"}, {"stat", "notapid"}}) {
            JwarpCommandTest.Run r = JwarpCommandTest.run(args);
            assertEquals(2, r.exit(), String.join(" ", args) + ": " + r.err());
            assertEquals(1, r.err().strip().lines().count(), r.err());
            assertTrue(r.err().startsWith("jwarp: "), r.err());
            assertFalse(r.err().contains("Exception"), r.err());
        }
    }

    @Test
    void theTableAndJsonOfAKnownSnapshot() {
        Snapshot s = new Snapshot(Path.of("x"), 42, 1_000, 1, "jwarp \"dedicated\" x1", 7, 61_000 + 1_000 - 200, 200,
                false, List.of(new Group("device", List.of("fpdus.tx", "bytes.rx"), new long[] {12, 123_456_789}),
                new Group("qp-17", List.of("fpdus.tx"), new long[] {3})));
        assertEquals(String.join(System.lineSeparator(),
                "pid 42  device 1  jwarp \"dedicated\" x1  up 1m01s  published 0.2s ago",
                "  scope   fpdus.tx   bytes.rx",
                "  device        12  123456789",
                "  qp-17          3          -",
                ""), StatCommand.table(List.of(s), 62_000));
        assertEquals("{\"schema\":\"jwarp-stat/1\",\"time\":5,\"processes\":[{\"pid\":42,\"startMillis\":1000,\"devices\":[{\"device\":1,"
                + "\"label\":\"jwarp \\\"dedicated\\\" x1\",\"publishCount\":7,\"publishedAtMillis\":61800,"
                + "\"truncated\":false,\"groups\":{\"device\":{\"fpdus.tx\":12,\"bytes.rx\":123456789},"
                + "\"qp-17\":{\"fpdus.tx\":3}}}]}]}", StatCommand.json(List.of(s), 5));
        assertEquals("3d04h", StatCommand.duration((3 * 24 + 4) * 3_600_000L + 5));
        assertEquals("2h05m", StatCommand.duration(2 * 3_600_000L + 5 * 60_000L));
    }

    /** Runs {@code args} until the output shows {@code text} (the first publication may not list a new QP yet). */
    JwarpCommandTest.Run awaitOutput(String text, String... args) {
        return awaitOutput(out -> out.contains(text), args);
    }

    /** Runs the command until its output satisfies {@code ready} (at most 20 s; the last run is returned). */
    JwarpCommandTest.Run awaitOutput(java.util.function.Predicate<String> ready, String... args) {
        long deadline = System.nanoTime() + 20_000_000_000L;
        while (true) {
            JwarpCommandTest.Run r = JwarpCommandTest.run(args);
            if (ready.test(r.out()) || System.nanoTime() - deadline > 0) {
                return r;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(5_000_000);
        }
    }

    /** With --watch, each engine thread's rates between two prints, from the counters' differences. */
    @Test
    void watchShowsPerEngineRatesBetweenPrints() {
        List<String> names = List.of("fpdus.tx", "bytes.tx", "fpdus.rx", "bytes.rx", "idle.parks", "cpu.ns");
        var before = new org.jwarp.engine.counters.CounterFileReader.Snapshot(dir, 7, 0, 0, "jwarp dedicated", 1, 1_000,
                200, false, List.of(new org.jwarp.engine.counters.CounterFileReader.Group("engine-0", names,
                new long[] {0, 0, 0, 0, 0, 0})));
        // two seconds later: 1,000 FPDUs and 4 MiB each way, 100 parks, 0.5 s of CPU
        var after = new org.jwarp.engine.counters.CounterFileReader.Snapshot(dir, 7, 0, 0, "jwarp dedicated", 11, 3_000,
                200, false, List.of(new org.jwarp.engine.counters.CounterFileReader.Group("engine-0", names,
                new long[] {1000, 4 << 20, 1000, 4 << 20, 100, 500_000_000L})));
        assertEquals("  pid 7 device 0, per engine thread over the last 2.0 s:" + System.lineSeparator()
                + "  engine-0   wake-ups/s        50  FPDUs/wake-up      20.0  MB/s       4.0  CPU  25.0 %  ns CPU/KiB 61035"
                + System.lineSeparator(), StatCommand.rates(List.of(before), List.of(after)));
    }
}
