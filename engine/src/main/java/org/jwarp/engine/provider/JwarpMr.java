package org.jwarp.engine.provider;

import java.lang.foreign.MemorySegment;
import org.jwarp.stack.StagTable;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.ProtectionDomain;

/** A registered region: a view of its entry in the device's STag table. */
final class JwarpMr implements MemoryRegion {

    private final JwarpPd pd;
    private volatile StagTable.Region region;

    JwarpMr(JwarpPd pd, StagTable.Region region) {
        this.pd = pd;
        this.region = region;
    }

    @Override
    public ProtectionDomain pd() {
        return pd;
    }

    @Override
    public MemorySegment segment() {
        return region.segment();
    }

    @Override
    public long length() {
        return region.length();
    }

    @Override
    public int access() {
        return region.access();
    }

    @Override
    public int lkey() {
        return region.stag();
    }

    @Override
    public int rkey() {
        return region.stag();
    }

    @Override
    public long iova() {
        return region.iova();
    }

    /**
     * Also false once the application closed the arena of the region's segment: its memory is gone,
     * and a peer's access to it is answered with a Terminate (RDMAP remote protection error,
     * invalid STag), a local request naming it completes with LOC_PROT_ERR. The STag stays in the
     * table until {@link #deregister()}, which the application still owes.
     */
    @Override
    public boolean isValid() {
        StagTable.Region r = region;
        return pd.stags().lookup(r.stag()) != null && StagTable.alive(r);
    }

    /**
     * Re-registers in place; returns once no engine thread still works on the old memory, so the
     * application may reuse or free it.
     */
    @Override
    public synchronized MemoryRegion reregister(MemorySegment segment, int access) {
        region = pd.stags().reregister(region.stag(), pd.handle(), segment, JwarpPd.iova(segment), access);
        pd.engine().awaitEngineCycles();
        return this;
    }

    /**
     * Invalidates the STag (no segment starts placing into the region from now on) and returns once
     * every engine thread has finished the duty cycle it was in, so that no placement or Read
     * Response still touches the memory: the application may then free it.
     */
    @Override
    public synchronized void deregister() {
        pd.stags().deregister(region.stag());
        pd.engine().awaitEngineCycles();
    }

    @Override
    public String toString() {
        return "MemoryRegion[stag=" + org.jwarp.verbs.Stag.toString(region.stag()) + ", " + region.length() + " bytes]";
    }
}
