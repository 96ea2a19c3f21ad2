package org.jwarp.engine.provider;

import java.lang.foreign.MemorySegment;
import java.nio.ByteBuffer;
import java.util.IdentityHashMap;
import org.jwarp.stack.StagTable;

/**
 * ByteBuffer views of registered regions, for the vectored socket calls that read into and write
 * from them (NIO takes ByteBuffers, not MemorySegments). One per connection direction and engine
 * thread: a region's views are made on first use and reused, so the steady state allocates nothing.
 * Bounded ({@link #MAX_REGIONS}), and emptied when any region of the device is deregistered, so no
 * view of a dead region outlives it.
 */
final class RegionViews {

    static final int MAX_REGIONS = 64;

    private final IdentityHashMap<MemorySegment, ByteBuffer[]> views = new IdentityHashMap<>();
    private final StagTable stags;
    private long deregistrations;
    private int perRegion;

    /** @param perRegion views per region: one per I/O vector entry that may name it in one call */
    RegionViews(StagTable stags, int perRegion) {
        this.stags = stags;
        this.perRegion = perRegion;
        this.deregistrations = stags.deregistrations();
    }

    /** Sets how many views each region gets (setup path); views made before are dropped if it changes. */
    void perRegion(int n) {
        if (n != perRegion) {
            views.clear();
            perRegion = n;
        }
    }

    /** The views of {@code region}, or null if NIO cannot address it (heap memory, over 2 GiB). */
    ByteBuffer[] of(MemorySegment region) {
        long d = stags.deregistrations();
        if (d != deregistrations) {
            views.clear();
            deregistrations = d;
        }
        ByteBuffer[] v = views.get(region);
        if (v != null) {
            return v;
        }
        if (!region.isNative() || region.byteSize() > Integer.MAX_VALUE) {
            return null;
        }
        if (views.size() >= MAX_REGIONS) {
            views.clear(); // regions come and go; the working set is made again on use
        }
        v = new ByteBuffer[perRegion];
        ByteBuffer base = region.asByteBuffer();
        for (int i = 0; i < v.length; i++) {
            v[i] = base.duplicate();
        }
        views.put(region, v);
        return v;
    }

    /** Drops every view (the connection ends). */
    void clear() {
        views.clear();
    }

    int size() {
        return views.size();
    }
}
