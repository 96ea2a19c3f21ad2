package org.jwarp.disni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

/** The QP-number map of the CQ processors: puts, replaces, removes, growth past its first table. */
class IntMapTest {

    @Test
    void holdsWhatWasPutUntilRemoved() {
        IntMap<String> m = new IntMap<>();
        for (int i = 0; i < 1000; i++) {
            m.put(i * 7919, "v" + i);
        }
        for (int i = 0; i < 1000; i++) {
            assertEquals("v" + i, m.get(i * 7919));
        }
        assertNull(m.get(1));
        m.put(7919, "again");
        assertEquals("again", m.get(7919));
        for (int i = 0; i < 1000; i += 2) {
            m.remove(i * 7919);
        }
        for (int i = 0; i < 1000; i++) {
            assertEquals(i % 2 == 0 ? null : i == 1 ? "again" : "v" + i, m.get(i * 7919));
        }
    }
}
