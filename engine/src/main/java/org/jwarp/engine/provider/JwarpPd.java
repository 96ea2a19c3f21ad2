package org.jwarp.engine.provider;

import java.lang.foreign.MemorySegment;
import org.jwarp.stack.StagTable;
import org.jwarp.verbs.MemoryRegion;
import org.jwarp.verbs.MemoryWindow;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.RdmaDevice;

/** A protection domain: a number that regions and queue pairs share (RFC 5040 §2.1, STag association). */
final class JwarpPd implements ProtectionDomain {

    private final JwarpDevice device;
    private final int handle;

    JwarpPd(JwarpDevice device, int handle) {
        this.device = device;
        this.handle = handle;
    }

    /** The device, as the provider's own class. */
    JwarpDevice engine() {
        return device;
    }

    @Override
    public RdmaDevice device() {
        return device;
    }

    @Override
    public int handle() {
        return handle;
    }

    @Override
    public MemoryRegion registerMemory(MemorySegment segment, int access) {
        if (segment == null || segment.byteSize() == 0) {
            throw new IllegalArgumentException("cannot register an empty memory segment");
        }
        if (segment.byteSize() > device.config().limits().maxMrSize()) {
            throw new IllegalArgumentException("memory region of " + segment.byteSize() + " bytes exceeds the device limit "
                    + device.config().limits().maxMrSize());
        }
        StagTable.Region r = device.stags().register(handle, segment, iova(segment), access);
        device.placeRegisteredMemory(segment);
        return new JwarpMr(this, r);
    }

    @Override
    public MemoryRegion allocFastRegMr(long maxLength) {
        if (maxLength < 1 || maxLength > device.config().limits().maxMrSize()) {
            throw new IllegalArgumentException("a fast-registration region covers 1 to " + device.config().limits()
                    .maxMrSize() + " bytes, not " + maxLength);
        }
        return new JwarpFastRegMr(this, device.stags().allocFastReg(handle, maxLength), maxLength);
    }

    @Override
    public MemoryWindow allocMw() {
        return new JwarpMw(this, device.stags().allocWindow(handle));
    }

    /** OFED and siw address a region by its virtual address; heap memory has none, so it starts at 0. */
    static long iova(MemorySegment segment) {
        return segment.isNative() ? segment.address() : 0;
    }

    StagTable stags() {
        return device.stags();
    }

    @Override
    public void close() {
        // Regions and queue pairs hold the number, not the object: nothing to release.
    }
}
