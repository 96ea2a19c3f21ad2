package org.jwarp.engine.counters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Random;

import org.jwarp.engine.notify.Doorbell;
import org.jwarp.verbs.CounterNames;
import org.jwarp.verbs.CounterSet;
import org.junit.jupiter.api.Test;

class CounterRegistryTest {

    @Test
    void registersEnginesAndQueuePairsByStableScope() {
        CounterRegistry r = new CounterRegistry();
        EngineCounters e0 = new EngineCounters(CounterScopes.engine(0), new Doorbell());
        CounterSet qp = CounterSet.standard(CounterScopes.qp(17));
        r.register(e0.view());
        r.register(qp);
        assertSame(qp, r.get("qp-17"));
        assertEquals(2, r.size());
        assertThrows(IllegalArgumentException.class, () -> r.register(CounterSet.standard("qp-17")), "duplicate scope");
        qp.increment(qp.require(CounterNames.FPDUS_TX));
        Map<String, Map<String, Long>> snap = r.snapshot();
        assertEquals(1L, snap.get("qp-17").get(CounterNames.FPDUS_TX));
        assertEquals(0L, snap.get("engine-0").get(EngineCounters.DUTY_CYCLES));
        assertTrue(r.unregister("qp-17"));
        assertFalse(r.unregister("qp-17"));
        assertNull(r.get("qp-17"));
        assertThrows(IllegalArgumentException.class, () -> r.register(null));
    }

    @Test
    void scopesAreListedDeviceFirstThenByKindAndNumber() {
        List<String> expected = List.of("device", "channel-0", "engine-0", "engine-2", "engine-10", "qp-1", "qp-2",
                "qp-10", "qp-100", "qp-x");
        List<String> shuffled = new ArrayList<>(expected);
        Collections.shuffle(shuffled, new Random(7));
        CounterRegistry r = new CounterRegistry();
        for (String s : shuffled) {
            r.register(CounterSet.standard(s));
        }
        assertEquals(expected, r.scopes());
    }

    /** The order is a total order even over odd names (the skip list depends on it). */
    @Test
    void orderIsConsistent() {
        String[] names = {"device", "qp-2", "qp-10", "qp-1a", "qp-", "qp", "a-b-3", "a-b-20", "engine-007", "engine-7"};
        for (String a : names) {
            assertEquals(0, CounterRegistry.compare(a, a));
            for (String b : names) {
                assertEquals(Integer.signum(CounterRegistry.compare(a, b)), -Integer.signum(CounterRegistry.compare(b, a)),
                        a + " vs " + b);
                for (String c : names) {
                    if (CounterRegistry.compare(a, b) < 0 && CounterRegistry.compare(b, c) < 0) {
                        assertTrue(CounterRegistry.compare(a, c) < 0, a + " < " + b + " < " + c);
                    }
                }
            }
        }
    }
}
