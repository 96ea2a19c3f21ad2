package org.jwarp.disni;

import java.lang.foreign.MemorySegment;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendWr;

/**
 * Turns a DiSNI scatter/gather entry (virtual address, length, lkey) into jwarp's (lkey, offset in
 * the region, length). An address that is not inside the lkey's region, or an lkey that names no
 * region, is passed on with an offset past the region's end, so that the provider's STag check
 * completes the request with a local protection error, as hardware does.
 */
public final class Sges {

    private Sges() {
    }

    /** Appends the entry to {@code wr}; allocation-free for registered memory. */
    public static void add(SendWr wr, long addr, int length, int lkey, boolean inline) {
        RegionTable.Entry e = RegionTable.INSTANCE.find(lkey);
        long off = RegionTable.offsetIn(e, addr, length);
        if (inline) {
            // Inline data needs no registration (OFED): unregistered memory is read by its address.
            if (off >= 0) {
                wr.addInlineSge(e.region().segment(), off, length);
            } else {
                wr.addInlineSge(MemorySegment.ofAddress(addr).reinterpret(length), 0, length);
            }
        } else {
            wr.addSge(lkey, off >= 0 ? off : outside(e), length);
        }
    }

    /** Appends the entry to {@code wr}; allocation-free. */
    public static void add(RecvWr wr, long addr, int length, int lkey) {
        RegionTable.Entry e = RegionTable.INSTANCE.find(lkey);
        long off = RegionTable.offsetIn(e, addr, length);
        wr.addSge(lkey, off >= 0 ? off : outside(e), length);
    }

    private static long outside(RegionTable.Entry e) {
        return e == null ? 0 : e.length() + 1;
    }
}
