package org.jwarp.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class StagTest {

    @Test
    void packsIndexAboveKey() {
        assertEquals(0x00001234, Stag.of(0x12, 0x34));
        assertEquals(0x12345678, Stag.of(0x123456, 0x78));
        assertEquals(0xFFFFFFFF, Stag.of(Stag.MAX_INDEX, Stag.MAX_KEY));
        assertEquals(0xFFFFFF00, Stag.of(Stag.MAX_INDEX, 0));
        assertEquals(Stag.INVALID, Stag.of(0, 0));
    }

    @Test
    void unpacksIncludingTheSignBit() {
        int stag = 0xABCDEF12;
        assertEquals(0xABCDEF, Stag.index(stag));
        assertEquals(0x12, Stag.key(stag));
        assertEquals(Stag.MAX_INDEX, Stag.index(-1));
        assertEquals(Stag.MAX_KEY, Stag.key(-1));
    }

    @Test
    void roundTripsRandomValues() {
        long seed = 0x5eed_57a6L;
        SplittableRandom rnd = new SplittableRandom(seed);
        for (int i = 0; i < 10_000; i++) {
            int index = rnd.nextInt(Stag.MAX_INDEX + 1);
            int key = rnd.nextInt(Stag.MAX_KEY + 1);
            int stag = Stag.of(index, key);
            assertEquals(index, Stag.index(stag), "seed " + seed);
            assertEquals(key, Stag.key(stag), "seed " + seed);
            int raw = rnd.nextInt();
            assertEquals(raw, Stag.of(Stag.index(raw), Stag.key(raw)), "seed " + seed);
        }
    }

    @Test
    void rejectsOutOfRangeParts() {
        assertThrows(IllegalArgumentException.class, () -> Stag.of(-1, 0));
        assertThrows(IllegalArgumentException.class, () -> Stag.of(Stag.MAX_INDEX + 1, 0));
        assertThrows(IllegalArgumentException.class, () -> Stag.of(0, -1));
        assertThrows(IllegalArgumentException.class, () -> Stag.of(0, 0x100));
    }

    @Test
    void keyRotationWrapsAndKeepsTheIndex() {
        assertEquals(1, Stag.nextKey(0));
        assertEquals(0xFF, Stag.nextKey(0xFE));
        assertEquals(0, Stag.nextKey(0xFF));
        int stag = Stag.of(0xFEDCBA, 0xFF);
        int next = Stag.withNextKey(stag);
        assertEquals(0xFEDCBA, Stag.index(next));
        assertEquals(0, Stag.key(next));
        assertNotEquals(stag, next);
        // 256 re-registrations come back to the first STag and every one in between differs.
        int s = Stag.of(7, 0x42);
        java.util.Set<Integer> seen = new java.util.HashSet<>();
        for (int i = 0; i < 256; i++) {
            seen.add(s);
            s = Stag.withNextKey(s);
            assertEquals(7, Stag.index(s));
        }
        assertEquals(Stag.of(7, 0x42), s);
        assertEquals(256, seen.size());
    }

    @Test
    void printsIndexAndKey() {
        assertEquals("0x000012:34", Stag.toString(0x1234));
        assertEquals("0xffffff:ff", Stag.toString(-1));
    }
}
