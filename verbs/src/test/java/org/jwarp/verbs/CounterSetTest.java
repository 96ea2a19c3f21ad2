package org.jwarp.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class CounterSetTest {

    @Test
    void standardNamesAreStable() {
        assertEquals(List.of("fpdus.tx", "bytes.tx", "fpdus.rx", "bytes.rx", "doorbells", "wakeups",
                "terminates.tx", "terminates.rx", "crc.errors"), CounterNames.STANDARD);
        CounterSet c = CounterSet.standard("qp-1");
        assertEquals(CounterNames.STANDARD, c.names());
        assertEquals("qp-1", c.scope());
        for (String n : CounterNames.STANDARD) {
            assertEquals(0, c.get(n));
        }
    }

    @Test
    void ownerUpdatesReadersSee() {
        CounterSet c = CounterSet.standard("engine-0");
        int fpdus = c.require(CounterNames.FPDUS_TX);
        int bytes = c.require(CounterNames.BYTES_TX);
        c.increment(fpdus);
        c.add(bytes, 1500);
        c.addAtomic(c.require(CounterNames.WAKEUPS), 2);
        assertEquals(1, c.get(CounterNames.FPDUS_TX));
        assertEquals(1500, c.get(bytes));
        Map<String, Long> snap = c.snapshot();
        assertEquals(List.copyOf(snap.keySet()), CounterNames.STANDARD);
        assertEquals(2L, snap.get(CounterNames.WAKEUPS));
        c.clear();
        assertEquals(0, c.get(fpdus));
        assertEquals(-1, c.indexOf("nope"));
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> c.get("nope"));
        assertTrue(e.getMessage().contains("no counter 'nope' in engine-0"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> c.require("nope"));
    }

    @Test
    void rejectsBadNames() {
        assertThrows(IllegalArgumentException.class, () -> new CounterSet("x", List.of("a", "a")));
        assertThrows(IllegalArgumentException.class, () -> new CounterSet("x", List.of("a", " ")));
        assertThrows(IllegalArgumentException.class, () -> new CounterSet("", List.of("a")));
    }

    /**
     * One writer adds to two counters in a fixed relation (bytes = 100 * fpdus, bytes written
     * first); readers must never see a value go down, and must see bytes >= 100 * fpdus when they
     * read fpdus first (acquire/release ordering). The final values are exact.
     */
    @Test
    void singleWriterManyReaders() throws Exception {
        CounterSet c = CounterSet.standard("engine-0");
        int fpdus = c.require(CounterNames.FPDUS_RX);
        int bytes = c.require(CounterNames.BYTES_RX);
        int n = 2_000_000;
        AtomicBoolean done = new AtomicBoolean();
        AtomicReference<String> failure = new AtomicReference<>();
        List<Thread> readers = new ArrayList<>();
        for (int r = 0; r < 2; r++) {
            Thread t = new Thread(() -> {
                long lastF = 0;
                long lastB = 0;
                while (!done.get() && failure.get() == null) {
                    long f = c.get(fpdus);
                    long b = c.get(bytes);
                    if (f < lastF || b < lastB) {
                        failure.set("went down: " + lastF + "->" + f + ", " + lastB + "->" + b);
                    }
                    if (b < 100 * f) {
                        failure.set("bytes " + b + " behind fpdus " + f);
                    }
                    lastF = f;
                    lastB = b;
                }
            });
            t.start();
            readers.add(t);
        }
        for (int i = 0; i < n; i++) {
            c.add(bytes, 100);
            c.increment(fpdus);
        }
        done.set(true);
        for (Thread t : readers) {
            t.join();
        }
        assertEquals(null, failure.get());
        assertEquals(n, c.get(fpdus));
        assertEquals(100L * n, c.get(bytes));
    }

    @Test
    void sumIsALiveView() {
        CounterSet a = CounterSet.standard("engine-0");
        CounterSet b = new CounterSet("engine-1", List.of(CounterNames.BYTES_TX, CounterNames.FPDUS_TX, "extra"));
        Counters sum = Counters.sum("device", List.of(a, b));
        assertEquals("device", sum.scope());
        assertEquals(CounterNames.STANDARD, sum.names());
        a.add(a.require(CounterNames.FPDUS_TX), 3);
        b.add(b.require(CounterNames.FPDUS_TX), 4);
        b.add(b.require(CounterNames.BYTES_TX), 10);
        assertEquals(7, sum.get(CounterNames.FPDUS_TX));
        assertEquals(10, sum.get(CounterNames.BYTES_TX));
        assertEquals(0, sum.get(CounterNames.CRC_ERRORS), "missing in b, 0 in a");
        assertThrows(IllegalArgumentException.class, () -> Counters.sum("d", List.of()));
    }
}
