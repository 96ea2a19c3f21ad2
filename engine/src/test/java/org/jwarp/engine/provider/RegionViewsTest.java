package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import org.jwarp.stack.StagTable;
import org.jwarp.verbs.Access;
import org.junit.jupiter.api.Test;

/** The views of registered regions a connection keeps for its socket calls: reused, bounded, dropped on deregistration. */
class RegionViewsTest {

    @Test
    void aRegionsViewsAreMadeOnceAndReused() {
        StagTable stags = new StagTable(16);
        RegionViews views = new RegionViews(stags, 3);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment m = arena.allocate(4096);
            ByteBuffer[] first = views.of(m);
            assertEquals(3, first.length);
            assertEquals(4096, first[0].capacity());
            assertNotSame(first[0], first[1], "one view per I/O vector entry");
            assertSame(first, views.of(m));
            assertNull(views.of(MemorySegment.ofArray(new byte[64])), "heap memory is copied, never viewed");
        }
    }

    @Test
    void theCacheIsBounded() {
        RegionViews views = new RegionViews(new StagTable(16), 1);
        try (Arena arena = Arena.ofConfined()) {
            for (int i = 0; i < RegionViews.MAX_REGIONS * 3; i++) {
                views.of(arena.allocate(64));
                assertEquals(Math.min(i % RegionViews.MAX_REGIONS + 1, RegionViews.MAX_REGIONS), views.size());
            }
        }
    }

    @Test
    void aDeregistrationDropsEveryView() {
        StagTable stags = new StagTable(16);
        RegionViews views = new RegionViews(stags, 2);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment kept = arena.allocate(64);
            MemorySegment gone = arena.allocate(64);
            StagTable.Region r = stags.register(1, gone, 0, Access.LOCAL_WRITE);
            ByteBuffer[] before = views.of(kept);
            views.of(gone);
            assertEquals(2, views.size());
            stags.deregister(r.stag());
            ByteBuffer[] after = views.of(kept);
            assertEquals(1, views.size(), "the dead region's views went");
            assertNotSame(before, after, "views are made again after a deregistration");
        }
    }

    @Test
    void changingTheViewsPerRegionDropsTheOldOnes() {
        RegionViews views = new RegionViews(new StagTable(16), 1);
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment m = arena.allocate(64);
            assertEquals(1, views.of(m).length);
            views.perRegion(4);
            assertEquals(4, views.of(m).length);
        }
    }
}
