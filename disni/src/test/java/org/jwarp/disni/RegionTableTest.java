package org.jwarp.disni;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.junit.jupiter.api.Test;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.RdmaDevice;

/** Addresses and lkeys back to regions: inside, at the edges, outside, after deregistration. */
class RegionTableTest {

    @Test
    void anAddressMapsToItsOffsetOnlyInsideItsRegion() {
        RdmaDevice dev = DisniDevice.get();
        ProtectionDomain pd = dev.allocPd();
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment seg = arena.allocate(4096);
            MemoryRegion mr = pd.registerMemory(seg, Access.LOCAL_WRITE);
            RegionTable t = new RegionTable();
            t.register(seg.address(), mr);
            RegionTable.Entry e = t.find(mr.lkey());
            assertSame(mr, e.region());
            assertEquals(0, RegionTable.offsetIn(e, seg.address(), 4096));
            assertEquals(100, RegionTable.offsetIn(e, seg.address() + 100, 3996));
            assertEquals(-1, RegionTable.offsetIn(e, seg.address() + 100, 3997), "one byte past the end");
            assertEquals(-1, RegionTable.offsetIn(e, seg.address() - 1, 1), "before the start");
            assertEquals(-1, RegionTable.offsetIn(null, seg.address(), 1), "no region");
            assertNull(t.find(mr.lkey() + 1));
            t.unregister(mr.lkey());
            assertNull(t.find(mr.lkey()));
            mr.deregister();
        }
    }
}
