package org.jwarp.ibverbs;

import java.lang.foreign.MemorySegment;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.ProtectionDomain;

/**
 * A memory region ({@code ibv_reg_mr}) over a native segment. The tagged offset is the segment's
 * address (VA-based, as libibverbs and siw address memory).
 */
final class IbvMr implements MemoryRegion, AutoCloseable {

    private final IbvPd pd;
    private final MemorySegment segment;
    private final int access;
    private final MemorySegment mr;
    private final int lkey;
    private final int rkey;
    private volatile boolean registered;

    IbvMr(IbvPd pd, MemorySegment segment, int access) {
        this.pd = pd;
        this.segment = segment;
        this.access = access;
        IbvDevice device = pd.device();
        // the arena stays open until the deregistration: the kernel writes the pinned pages meanwhile
        device.arenaHolds().acquire(segment);
        try {
            this.mr = IbvDevice.reinterpret(IbvLib.pointer("ibv_reg_mr(" + segment.byteSize() + " bytes)",
                    device.lib().regMr, pd.pointer(), segment, segment.byteSize(), access), VerbsStructs.MR.byteSize());
        } catch (RuntimeException e) {
            device.arenaHolds().release(segment);
            throw e;
        }
        this.lkey = mr.get(Structs.INT, VerbsStructs.MR_LKEY);
        this.rkey = mr.get(Structs.INT, VerbsStructs.MR_RKEY);
        registered = true;
        device.lkeys().put(lkey, segment.address());
        device.adopt(this);
    }

    @Override
    public ProtectionDomain pd() {
        return pd;
    }

    @Override
    public MemorySegment segment() {
        return segment;
    }

    @Override
    public long length() {
        return segment.byteSize();
    }

    @Override
    public int access() {
        return access;
    }

    @Override
    public int lkey() {
        return lkey;
    }

    @Override
    public int rkey() {
        return rkey;
    }

    @Override
    public long iova() {
        return segment.address();
    }

    @Override
    public boolean isValid() {
        return registered && segment.scope().isAlive();
    }

    @Override
    public MemoryRegion reregister(MemorySegment segment, int access) {
        throw new UnsupportedOperationException(pd.device().unsupported("ibv_rereg_mr",
                "not bound by this provider yet; deregister and register again"));
    }

    @Override
    public synchronized void deregister() {
        if (registered) {
            registered = false;
            IbvDevice device = pd.device();
            device.lkeys().remove(lkey);
            device.release(this);
            IbvLib.check("ibv_dereg_mr", device.lib().deregMr, mr);
            // (a region the kernel kept stays held until the device is closed)
            device.arenaHolds().release(segment);
        }
    }

    @Override
    public void close() {
        deregister();
    }
}
