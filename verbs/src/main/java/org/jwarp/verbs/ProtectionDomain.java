package org.jwarp.verbs;

import java.lang.foreign.MemorySegment;

/**
 * A protection domain ({@code ibv_pd}): memory regions and queue pairs of one PD may be used
 * together; an STag of another PD is refused (DDP tagged "STag not associated with RDMAP stream",
 * RFC 5041 §7.2, locally {@link WcStatus#LOC_PROT_ERR}).
 *
 * <p>Thread-safety: every method may be called from any thread (setup path).
 */
public interface ProtectionDomain extends AutoCloseable {

    /** {@return the device this PD belongs to} */
    RdmaDevice device();

    /** {@return the provider-assigned number, unique within the device (diagnostics)} */
    int handle();

    /**
     * Registers {@code segment} with {@link Access} flags and returns its region, with a fresh
     * STag ({@link MemoryRegion#lkey()} = {@link MemoryRegion#rkey()}, index from the device's STag
     * table, a key the provider chooses).
     *
     * <p>The caller keeps the segment alive (its {@link java.lang.foreign.Arena} open) until the
     * region is deregistered; the provider keeps a reference to it. The {@code jwarp} provider
     * cannot stop an arena from closing, after which any access to the region is a local protection
     * error; the {@code ibverbs} provider, whose kernel writes the memory on its own, keeps the
     * arena from closing until the region is deregistered (and takes no confined arena).
     *
     * @throws IllegalArgumentException if the flags are invalid ({@link Access#validate}), the segment
     *                                  is read-only while write access is asked, its size is 0 or
     *                                  above {@link DeviceLimits#maxMrSize()}, or the provider cannot
     *                                  use this kind of segment (it names which kinds it takes)
     * @throws IllegalStateException    if the PD is closed or the device has {@link DeviceLimits#maxMrs()} regions
     * @param segment the memory to register
     * @param access  {@link Access} flags
     * @return the region
     */
    MemoryRegion registerMemory(MemorySegment segment, int access);

    /**
     * Allocates a type 2 memory window ({@code ibv_alloc_mw} with {@code IBV_MW_TYPE_2}): an STag
     * that grants nothing until a BIND_MW work request binds it to part of a region
     * ({@link SendWr#bindMw}); LOCAL_INV or a peer's Send with Invalidate unbinds it.
     *
     * @throws UnsupportedOperationException if the provider has no memory windows
     * @return the window, unbound
     */
    default MemoryWindow allocMw() {
        throw new UnsupportedOperationException("this provider has no memory windows");
    }

    /**
     * Allocates a region for fast registration ({@code ib_alloc_mr} with {@code IB_MR_TYPE_MEM_REG}):
     * its STag is invalid until a REG_MR work request registers memory on it ({@link SendWr#regMr}),
     * and again after LOCAL_INV or the peer's Send with Invalidate; each registration moves to the
     * next key. The way iSER and NVMe-oF over iWARP advertise a buffer per I/O.
     *
     * @param maxLength the most bytes one registration may cover
     * @throws UnsupportedOperationException if the provider has no fast registration
     * @return the region, with an invalid STag until the first REG_MR
     */
    default MemoryRegion allocFastRegMr(long maxLength) {
        throw new UnsupportedOperationException("this provider has no fast registration");
    }

    /**
     * Deallocates the PD ({@code ibv_dealloc_pd}).
     *
     * @throws IllegalStateException if regions or queue pairs of this PD still exist (OFED's EBUSY)
     */
    @Override
    void close();
}
