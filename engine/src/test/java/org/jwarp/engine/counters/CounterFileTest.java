package org.jwarp.engine.counters;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.jwarp.verbs.CounterSet;
import org.jwarp.verbs.Counters;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The counters file: what the writer publishes, a reader reads back exactly, across layouts and processes. */
class CounterFileTest {

    static final long PID = ProcessHandle.current().pid();
    static final long START = CounterFileReader.processStartMillis();

    @TempDir
    Path dir;

    static CounterSet group(String scope, long... values) {
        List<String> names = new ArrayList<>();
        for (int i = 0; i < values.length; i++) {
            names.add("c" + i + ".x");
        }
        CounterSet c = new CounterSet(scope, names);
        for (int i = 0; i < values.length; i++) {
            c.add(i, values[i]);
        }
        return c;
    }

    @Test
    void aReaderSeesTheHeaderAndEveryValueAsPublished() throws IOException {
        try (CounterFileWriter w = CounterFileWriter.create(dir, PID, START, 3, "jwarp test", 200)) {
            CounterSet a = group("device", 1, 2, Long.MAX_VALUE);
            CounterSet b = group("qp-17", 0, -1);
            w.publish(List.of(a, b));
            assertEquals(CounterFile.path(dir, PID, 3), w.path());
            CounterFileReader.Snapshot s = CounterFileReader.read(w.path());
            assertEquals(PID, s.pid());
            assertEquals(START, s.startMillis());
            assertEquals(3, s.device());
            assertEquals("jwarp test", s.label());
            assertEquals(1, s.publishCount());
            assertEquals(200, s.periodMillis());
            assertFalse(s.truncated());
            assertEquals(List.of("device", "qp-17"), s.groups().stream().map(CounterFileReader.Group::scope).toList());
            assertEquals(List.of("c0.x", "c1.x", "c2.x"), s.groups().getFirst().names());
            assertArrayEquals(new long[] {1, 2, Long.MAX_VALUE}, s.groups().get(0).values());
            assertArrayEquals(new long[] {0, -1}, s.groups().get(1).values());
            assertEquals(-1, s.group("qp-17").orElseThrow().get("c1.x"));

            // values move in place; a new group rewrites the layout
            a.add(0, 10);
            w.publish(List.of(a, b, group("qp-18", 7)));
            s = CounterFileReader.read(w.path());
            assertEquals(2, s.publishCount());
            assertEquals(11, s.group("device").orElseThrow().get("c0.x"));
            assertArrayEquals(new long[] {7}, s.group("qp-18").orElseThrow().values());
            // and a group going away too
            w.publish(List.of(b));
            s = CounterFileReader.read(w.path());
            assertEquals(List.of("qp-17"), s.groups().stream().map(CounterFileReader.Group::scope).toList());
        }
        assertFalse(Files.exists(CounterFile.path(dir, PID, 3)), "close removes the file");
    }

    @Test
    void labelsAndNamesKeepTheirUnicodeAndLongLabelsAreCut() throws IOException {
        String label = "jwarp ééé " + "x".repeat(100);
        try (CounterFileWriter w = CounterFileWriter.create(dir, PID, START, 0, label, 200)) {
            w.publish(List.of(new CounterSet("qp-1", List.of("bytes.rx", "größe"))));
            CounterFileReader.Snapshot s = CounterFileReader.read(w.path());
            assertTrue(label.startsWith(s.label()) && s.label().length() < label.length(), s.label());
            assertEquals(List.of("bytes.rx", "größe"), s.groups().getFirst().names());
        }
    }

    @Test
    void groupsThatDoNotFitAreLeftOutAndFlagged() throws IOException {
        List<Counters> many = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            many.add(group("qp-" + i, i, i + 1, i + 2));
        }
        try (CounterFileWriter w = CounterFileWriter.create(dir, PID, START, 0, "big", 200)) {
            w.publish(many);
            w.publish(many);
            CounterFileReader.Snapshot s = CounterFileReader.read(w.path());
            assertTrue(s.truncated());
            int n = s.groups().size();
            assertTrue(n > 1000 && n < 20_000, "groups: " + n);
            CounterFileReader.Group last = s.groups().getLast();
            assertEquals("qp-" + (n - 1), last.scope());
            assertArrayEquals(new long[] {n - 1, n, n + 1}, last.values());
        }
    }

    @Test
    void readAllListsLiveProcessesAndRemovesTheFilesOfDeadOnes() throws Exception {
        Process p = new ProcessBuilder("true").start();
        p.waitFor();
        long dead = p.pid();
        try (CounterFileWriter live = CounterFileWriter.create(dir, PID, START, 0, "live", 200);
             CounterFileWriter gone = CounterFileWriter.create(dir, dead, START, 0, "gone", 200);
             CounterFileWriter reused = CounterFileWriter.create(dir, PID, START - 3_600_000, 1, "old", 200)) {
            live.publish(List.of(group("device", 5)));
            gone.publish(List.of(group("device", 6)));
            reused.publish(List.of(group("device", 7)));
            Files.writeString(dir.resolve(PID + "-9" + CounterFile.SUFFIX), "not yet a counters file");
            Files.writeString(dir.resolve("notes.txt"), "not ours");

            List<CounterFileReader.Snapshot> all = CounterFileReader.readAll(dir, false);
            assertEquals(1, all.size(), all.toString());
            assertEquals("live", all.getFirst().label());
            assertTrue(Files.exists(gone.path()));

            CounterFileReader.readAll(dir, true);
            assertFalse(Files.exists(gone.path()), "a dead process's file is removed");
            assertFalse(Files.exists(reused.path()), "so is one whose pid now belongs to another process");
            assertTrue(Files.exists(live.path()));
            assertTrue(Files.exists(dir.resolve(PID + "-9" + CounterFile.SUFFIX)), "a live process's file stays");
            assertTrue(Files.exists(dir.resolve("notes.txt")));
        }
        assertEquals(List.of(), CounterFileReader.readAll(dir.resolve("absent"), true));
    }

    @Test
    void aFileThatIsNotACountersFileIsRefused() throws IOException {
        Path f = dir.resolve("1-0" + CounterFile.SUFFIX);
        Files.write(f, new byte[CounterFile.HEADER_LENGTH]);
        assertThrows(CounterFileReader.FormatException.class, () -> CounterFileReader.read(f));
        Files.write(f, new byte[3]);
        assertThrows(CounterFileReader.FormatException.class, () -> CounterFileReader.read(f));
    }

    @Test
    void fileNamesCarryThePid() {
        assertEquals(1234, CounterFile.pidOf(Path.of("/x/1234-0.counters")));
        assertEquals(-1, CounterFile.pidOf(Path.of("/x/1234.counters")));
        assertEquals(-1, CounterFile.pidOf(Path.of("/x/1234-a.counters")));
        assertEquals(-1, CounterFile.pidOf(Path.of("/x/1234-0.txt")));
    }

    /**
     * A reader racing a writer that keeps changing the layout sees, every time it returns, one of
     * the layouts whole, with values that were written and never go backwards; when the layout
     * changes faster than it can read, it says so rather than return a torn one.
     */
    @Test
    void aReaderRacingLayoutChangesSeesWholeLayoutsAndMonotoneValues() throws Exception {
        try (CounterFileWriter w = CounterFileWriter.create(dir, PID, START, 0, "race", 200)) {
            CounterSet a = group("a", 0, 0, 0);
            CounterSet b = group("b", 0, 0, 0, 0, 0);
            w.publish(List.of(a));
            AtomicBoolean stop = new AtomicBoolean();
            AtomicReference<Throwable> failure = new AtomicReference<>();
            Thread writer = Thread.ofPlatform().start(() -> {
                for (long v = 1; !stop.get(); v++) {
                    for (int i = 0; i < 3; i++) {
                        a.add(i, 1);
                    }
                    for (int i = 0; i < 5; i++) {
                        b.add(i, 1);
                    }
                    // a new layout every tenth publication: far more often than queue pairs come and go
                    w.publish((v / 10) % 2 == 0 ? List.of(a) : List.of(b, a));
                }
            });
            int whole = 0;
            try {
                long lastA = 0;
                for (int k = 0; k < 20_000; k++) {
                    CounterFileReader.Snapshot s;
                    try {
                        s = CounterFileReader.read(w.path());
                    } catch (CounterFileReader.FormatException e) {
                        // a reader that gives up on a layout changing faster than it can read is
                        // right to (this writer changes it thousands of times a second): no torn read
                        assertTrue(e.getMessage().endsWith("the layout kept changing while it was read"), e.getMessage());
                        continue;
                    }
                    whole++;
                    List<String> scopes = s.groups().stream().map(CounterFileReader.Group::scope).toList();
                    assertTrue(scopes.equals(List.of("a")) || scopes.equals(List.of("b", "a")), scopes.toString());
                    CounterFileReader.Group ga = s.group("a").orElseThrow();
                    assertEquals(3, ga.names().size());
                    for (long v : ga.values()) {
                        assertTrue(v >= 0, "a value never written: " + v);
                    }
                    assertTrue(ga.values()[0] >= lastA, "went backwards: " + ga.values()[0] + " after " + lastA);
                    lastA = ga.values()[0];
                    s.group("b").ifPresent(gb -> assertEquals(5, gb.values().length));
                }
            } catch (Throwable t) {
                failure.set(t);
            } finally {
                stop.set(true);
                writer.join();
            }
            if (failure.get() != null) {
                throw new AssertionError(failure.get());
            }
            assertTrue(whole >= 100, "only " + whole + " of 20000 reads saw a layout whole");
        }
    }
}
