package org.jwarp.ibverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

/** lkey to region address: put, overwrite, remove, growth, and keys with the top bit set. */
class LkeyTableTest {

    @Test
    void mapsKeysToAddressesThroughGrowthAndRemoval() {
        LkeyTable t = new LkeyTable();
        assertEquals(-1L, t.address(0x1234));
        for (int i = 0; i < 1000; i++) {
            t.put(0xfcc2ef00 + i * 0x100, 0x7f0000000000L + i * 4096L);
        }
        for (int i = 0; i < 1000; i++) {
            assertEquals(0x7f0000000000L + i * 4096L, t.address(0xfcc2ef00 + i * 0x100), "lkey #" + i);
        }
        t.put(0xfcc2ef00, 42L);
        assertEquals(42L, t.address(0xfcc2ef00));
        for (int i = 0; i < 1000; i += 2) {
            t.remove(0xfcc2ef00 + i * 0x100);
        }
        for (int i = 0; i < 1000; i++) {
            long expected = i % 2 == 0 ? -1L : 0x7f0000000000L + i * 4096L;
            assertEquals(expected, t.address(0xfcc2ef00 + i * 0x100), "lkey #" + i);
        }
        assertEquals(-1L, t.address(0));
    }
}
