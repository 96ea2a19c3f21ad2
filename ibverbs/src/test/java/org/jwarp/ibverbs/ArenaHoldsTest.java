package org.jwarp.ibverbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;

/** The arena of registered memory cannot close until its last region is deregistered. */
class ArenaHoldsTest {

    @Test
    void aSharedArenaCannotCloseWhileARegionIsOverItsMemory() {
        ArenaHolds holds = new ArenaHolds();
        Arena arena = Arena.ofShared();
        MemorySegment a = arena.allocate(4096);
        MemorySegment b = arena.allocate(64);
        holds.acquire(a);
        holds.acquire(b);
        assertEquals(1, holds.held());
        IllegalStateException e = assertThrows(IllegalStateException.class, arena::close);
        assertTrue(e.getMessage().contains("acquired"), e.getMessage());
        holds.release(a);
        assertThrows(IllegalStateException.class, arena::close);     // b still registered
        holds.release(b);
        assertEquals(0, holds.held());
        arena.close();
        assertTrue(!a.scope().isAlive());
    }

    @Test
    void eachArenaIsHeldOnItsOwn() {
        ArenaHolds holds = new ArenaHolds();
        Arena one = Arena.ofShared();
        Arena two = Arena.ofShared();
        MemorySegment s1 = one.allocate(16);
        MemorySegment s2 = two.allocate(16);
        holds.acquire(s1);
        holds.acquire(s2);
        assertEquals(2, holds.held());
        holds.release(s2);
        two.close();
        assertThrows(IllegalStateException.class, one::close);
        holds.releaseAll();
        one.close();
    }

    @Test
    void aConfinedArenaIsRefusedInOneLine() {
        ArenaHolds holds = new ArenaHolds();
        try (Arena arena = Arena.ofConfined()) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> holds.acquire(arena.allocate(64)));
            assertTrue(e.getMessage().startsWith("ibverbs registers memory of shared, automatic or global arenas only"),
                    e.getMessage());
            assertEquals(0, holds.held());
        }
    }

    @Test
    void aClosedArenaIsRefused() {
        ArenaHolds holds = new ArenaHolds();
        Arena arena = Arena.ofShared();
        MemorySegment s = arena.allocate(64);
        arena.close();
        assertThrows(IllegalStateException.class, () -> holds.acquire(s));
        assertEquals(0, holds.held());
    }

    @Test
    void globalAndAutomaticMemory() {
        ArenaHolds holds = new ArenaHolds();
        holds.acquire(Arena.global().allocate(64));
        assertEquals(0, holds.held());                              // never freed: nothing to hold
        MemorySegment auto = Arena.ofAuto().allocate(64);
        holds.acquire(auto);
        assertEquals(1, holds.held());                              // held, and so reachable
        holds.release(auto);
        assertEquals(0, holds.held());
    }
}
