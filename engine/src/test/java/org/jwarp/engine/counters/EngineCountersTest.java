package org.jwarp.engine.counters;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;

import org.jwarp.engine.notify.Doorbell;
import org.jwarp.verbs.CounterNames;
import org.jwarp.verbs.Counters;
import org.junit.jupiter.api.Test;

class EngineCountersTest {

    @Test
    void holdsTheStandardNamesThenTheEngineOnes() {
        EngineCounters c = new EngineCounters(CounterScopes.engine(0), new Doorbell());
        assertEquals("engine-0", c.scope());
        assertEquals(c.view().names().subList(0, CounterNames.STANDARD.size()), CounterNames.STANDARD);
        assertEquals(List.of("duty.cycles", "idle.parks"), c.view().names().subList(CounterNames.STANDARD.size(),
                c.view().names().size()));
        assertEquals(EngineCounters.NAMES, c.owned().names());
    }

    @Test
    void viewSumsTheEnginesAndTheDoorbellsCounters() {
        Doorbell bell = new Doorbell();
        EngineCounters c = new EngineCounters("engine-1", bell);
        c.onDutyCycle();
        c.onDutyCycle();
        c.owned().add(c.owned().require(CounterNames.BYTES_TX), 1500);
        bell.ring();
        bell.ring();
        bell.ring();
        bell.consume();
        bell.park(1);                                     // not pending any more: one real (1 ns) park
        Counters v = c.view();
        assertEquals(2, v.get(EngineCounters.DUTY_CYCLES));
        assertEquals(1500, v.get(CounterNames.BYTES_TX));
        assertEquals(3, v.get(CounterNames.DOORBELLS));
        assertEquals(0, v.get(CounterNames.WAKEUPS));
        assertEquals(1, v.get(EngineCounters.IDLE_PARKS));
        assertEquals(0, c.owned().get(CounterNames.DOORBELLS), "the engine never writes the doorbell's counters");
        assertTrue(c.toString().startsWith("engine-1{"), c.toString());
    }

    @Test
    void scopesAreStable() {
        assertEquals("device", CounterScopes.DEVICE);
        assertEquals("engine-3", CounterScopes.engine(3));
        assertEquals("qp-17", CounterScopes.qp(17));
        assertEquals("channel-2", CounterScopes.channel(2));
        assertThrows(IllegalArgumentException.class, () -> CounterScopes.qp(-1));
        assertThrows(IllegalArgumentException.class, () -> new EngineCounters("engine-0", null));
    }
}
