package org.jwarp.verbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import org.junit.jupiter.api.Test;

class AccessTest {

    @Test
    void usesLibibverbsValues() {
        assertEquals(1, Access.LOCAL_WRITE);
        assertEquals(2, Access.REMOTE_WRITE);
        assertEquals(4, Access.REMOTE_READ);
        assertEquals(8, Access.REMOTE_ATOMIC);
    }

    @Test
    void everyCombinationFollowsTheLocalWriteRule() {
        for (int flags = 0; flags <= Access.ALL; flags++) {
            boolean needsLocalWrite = (flags & (Access.REMOTE_WRITE | Access.REMOTE_ATOMIC)) != 0;
            boolean expected = !needsLocalWrite || (flags & Access.LOCAL_WRITE) != 0;
            assertEquals(expected, Access.isValid(flags), Access.toString(flags));
            if (expected) {
                assertEquals(flags, Access.validate(flags));
            } else {
                int f = flags;
                IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Access.validate(f));
                assertTrue(e.getMessage().contains("require LOCAL_WRITE"), e.getMessage());
            }
        }
    }

    @Test
    void rejectsUnknownBits() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Access.validate(0x10));
        assertTrue(e.getMessage().contains("unknown access bits 0x10"), e.getMessage());
        assertThrows(IllegalArgumentException.class, () -> Access.validate(Access.LOCAL_WRITE | 0x100));
    }

    @Test
    void namesBitsAndTestsThem() {
        assertEquals("LOCAL_READ_ONLY", Access.toString(0));
        assertEquals("LOCAL_WRITE|REMOTE_WRITE|REMOTE_READ|REMOTE_ATOMIC", Access.toString(Access.ALL));
        assertTrue(Access.has(Access.LOCAL_WRITE | Access.REMOTE_READ, Access.REMOTE_READ));
        assertTrue(!Access.has(Access.LOCAL_WRITE, Access.LOCAL_WRITE | Access.REMOTE_READ));
    }
}
