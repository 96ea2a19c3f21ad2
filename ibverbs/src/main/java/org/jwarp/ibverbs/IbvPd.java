package org.jwarp.ibverbs;

import java.lang.foreign.MemorySegment;
import org.jwarp.verbs.Access;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.MemoryWindow;
import org.jwarp.verbs.ProtectionDomain;

/** A protection domain ({@code ibv_alloc_pd}). */
final class IbvPd implements ProtectionDomain {

    private final IbvDevice device;
    private final MemorySegment pd;
    private final int handle;
    private boolean closed;

    IbvPd(IbvDevice device) {
        this.device = device;
        this.pd = IbvDevice.reinterpret(IbvLib.pointer("ibv_alloc_pd(" + device.name() + ")", device.lib().allocPd,
                device.context()), VerbsStructs.PD.byteSize());
        this.handle = pd.get(Structs.INT, VerbsStructs.PD_HANDLE);
        device.adopt(this);
    }

    MemorySegment pointer() {
        return pd;
    }

    @Override
    public IbvDevice device() {
        return device;
    }

    @Override
    public int handle() {
        return handle;
    }

    @Override
    public MemoryRegion registerMemory(MemorySegment segment, int access) {
        requireOpen();
        Access.validate(access);
        if (segment == null || !segment.isNative()) {
            throw new IllegalArgumentException("ibverbs registers native segments only (from an Arena):"
                    + " the kernel pins memory by address, and a heap segment has none");
        }
        if (segment.byteSize() == 0 || segment.byteSize() > device.attributes().limits().maxMrSize()) {
            throw new IllegalArgumentException("region size must be in 1.." + device.attributes().limits().maxMrSize()
                    + " on " + device.name() + ": " + segment.byteSize());
        }
        if (segment.isReadOnly() && (access & (Access.LOCAL_WRITE | Access.REMOTE_WRITE)) != 0) {
            throw new IllegalArgumentException("a read-only segment cannot be registered with write access");
        }
        return new IbvMr(this, segment, access);
    }

    @Override
    public MemoryWindow allocMw() {
        throw new UnsupportedOperationException(device.unsupported("ibv_alloc_mw", device.attributes().maxMw() == 0
                ? "the device offers no memory windows: max_mw 0" : "not bound by this provider"));
    }

    @Override
    public MemoryRegion allocFastRegMr(long maxLength) {
        throw new UnsupportedOperationException(device.unsupported("fast registration (REG_MR)",
                "libibverbs has no fast-registration work request"));
    }

    void requireOpen() {
        if (closed) {
            throw new IllegalStateException("ibverbs: protection domain " + handle + " is closed");
        }
        device.requireOpen();
    }

    @Override
    public synchronized void close() {
        if (!closed) {
            closed = true;
            device.release(this);
            IbvLib.check("ibv_dealloc_pd", device.lib().deallocPd, pd);
        }
    }
}
