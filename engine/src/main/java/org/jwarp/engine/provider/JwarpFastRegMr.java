package org.jwarp.engine.provider;

import java.lang.foreign.MemorySegment;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jwarp.stack.StagTable;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.ProtectionDomain;

/**
 * A region for fast registration: an STag index whose memory and key the queue pairs' engine
 * threads change (REG_MR, LOCAL_INV, a peer's Send with Invalidate); every getter reads the
 * device's STag table for the current registration.
 */
final class JwarpFastRegMr implements MemoryRegion {

    private final JwarpPd pd;
    private final int allocatedStag;
    private final long maxLength;
    private final AtomicBoolean deregistered = new AtomicBoolean();

    JwarpFastRegMr(JwarpPd pd, StagTable.Region region, long maxLength) {
        this.pd = pd;
        this.allocatedStag = region.stag();
        this.maxLength = maxLength;
    }

    private StagTable.Region current() {
        StagTable.Region r = pd.stags().current(allocatedStag);
        return r != null ? r : new StagTable.Region(allocatedStag, pd.handle(), MemorySegment.NULL, 0, 0);
    }

    @Override
    public ProtectionDomain pd() {
        return pd;
    }

    @Override
    public MemorySegment segment() {
        return current().segment();
    }

    @Override
    public long length() {
        return current().length();
    }

    @Override
    public int access() {
        return current().access();
    }

    @Override
    public int lkey() {
        return current().stag();
    }

    @Override
    public int rkey() {
        return current().stag();
    }

    @Override
    public long iova() {
        return current().iova();
    }

    /** Registered now (false before the first REG_MR and after an invalidation). */
    @Override
    public boolean isValid() {
        return !deregistered.get() && current().length() > 0;
    }

    /** Fast-registration regions are registered by REG_MR work requests, not by this call. */
    @Override
    public MemoryRegion reregister(MemorySegment segment, int access) {
        throw new UnsupportedOperationException("a fast-registration region is registered by a REG_MR work request "
                + "(SendWr.regMr), up to " + maxLength + " bytes");
    }

    @Override
    public void deregister() {
        if (deregistered.compareAndSet(false, true)) {
            pd.stags().deregister(lkey());
            pd.engine().awaitEngineCycles();          // no engine still places into the last registration
        }
    }

    @Override
    public String toString() {
        return "FastRegMemoryRegion[stag=" + org.jwarp.verbs.Stag.toString(lkey()) + ", " + length() + " of at most "
                + maxLength + " bytes]";
    }
}
