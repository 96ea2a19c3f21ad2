package org.jwarp.engine.affinity;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Random;

import org.junit.jupiter.api.Test;

class CpusTest {

    @Test
    void parsesIdsAndRangesIntoASortedSet() {
        assertArrayEquals(new int[] {0, 1, 3}, Cpus.parse("0-1,3").toArray());
        assertArrayEquals(new int[] {2, 5, 6, 7}, Cpus.parse("5-7,2").toArray(), "sorted");
        assertEquals(java.util.List.of(2, 5, 6, 7), Cpus.parse("5-7,2").toList());
        assertArrayEquals(new int[] {0, 1, 2}, Cpus.parse("0-2,1,2-2").toArray(), "overlaps are a union");
        assertArrayEquals(new int[] {4}, Cpus.parse(" 4 ").toArray());
        assertArrayEquals(new int[] {1, 2, 3}, Cpus.parse("1 - 3").toArray());
        assertArrayEquals(new int[] {1023}, Cpus.parse("1023").toArray());
        assertEquals(1024, Cpus.parse("0-1023").size());
    }

    @Test
    void badInputGivesAClearError() {
        assertError("", "empty");
        assertError("   ", "empty");
        assertError(null, "empty");
        assertError("1,,2", "empty item");
        assertError("1,", "empty item");
        assertError("a", "\"a\"");
        assertError("-1", "missing a number");
        assertError("3-", "missing a number");
        assertError("3-1", "backwards");
        assertError("1024", "out of range 0..1023");
        assertError("0-99999", "out of range");
        assertError("1-2-3", "\"1-2-3\"");
        assertError("0x3", "\"0x3\"");
    }

    private static void assertError(String input, String fragment) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Cpus.parse(input),
                "input " + input);
        assertTrue(e.getMessage().contains(fragment), "message for \"" + input + "\": " + e.getMessage());
    }

    @Test
    void canonicalTextRoundTrips() {
        assertEquals("0-1,3", Cpus.parse("3,1,0").toString());
        assertEquals("0,2,4-6", Cpus.of(6, 0, 4, 2, 5).toString());
        assertEquals("", Cpus.EMPTY.toString());
        Random random = new Random(20261122L);
        for (int i = 0; i < 200; i++) {
            int[] ids = random.ints(1 + random.nextInt(40), 0, Cpus.MAX_CPUS).toArray();
            Cpus cpus = Cpus.of(ids);
            assertEquals(cpus, Cpus.parse(cpus.toString()), "seed 20261122, case " + i + ": " + cpus);
            assertEquals(cpus, Cpus.fromMask(cpus.toMask()));
        }
    }

    @Test
    void sysfsContentsMayBeEmpty() {
        assertTrue(Cpus.parseSysfs("\n").isEmpty(), "a memory-only node");
        assertEquals(Cpus.parse("0-1"), Cpus.parseSysfs("0-1\n"));
    }

    @Test
    void queries() {
        Cpus cpus = Cpus.parse("2,64-65");
        assertTrue(cpus.contains(64));
        assertFalse(cpus.contains(3));
        assertFalse(cpus.contains(-1));
        assertFalse(cpus.contains(5000));
        assertEquals(2, cpus.first());
        assertEquals(3, cpus.size());
        long[] mask = cpus.toMask();
        assertEquals(16, mask.length, "128 bytes");
        assertEquals(1L << 2, mask[0]);
        assertEquals(3L, mask[1]);
        assertThrows(IllegalStateException.class, Cpus.EMPTY::first);
        assertThrows(IllegalArgumentException.class, () -> Cpus.of(-1));
        assertThrows(IllegalArgumentException.class, () -> Cpus.fromMask(new long[2]));
    }
}
