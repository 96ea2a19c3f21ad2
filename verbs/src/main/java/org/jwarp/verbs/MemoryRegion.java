package org.jwarp.verbs;

import java.lang.foreign.MemorySegment;

/**
 * A registered memory region ({@code ibv_mr}): a {@link MemorySegment} the RNIC may read and, as
 * {@link #access()} allows, write for local work requests and for peers holding its STag.
 *
 * <p>STag: one 32-bit STag ({@link Stag}: 24-bit index + 8-bit key) serves as both
 * {@link #lkey()} and {@link #rkey()}, as in siw. {@link #reregister} keeps the index and moves to
 * the next key, so a peer holding the old STag is refused. {@link #deregister()} invalidates the
 * STag at once: later tagged messages naming it are answered with a Terminate (DDP tagged
 * "invalid STag") and local work requests naming it complete with {@link WcStatus#LOC_PROT_ERR}.
 * A peer's Send with Invalidate naming this rkey invalidates it as well ({@link #isValid()} turns
 * false; re-register to use the region again).
 *
 * <p>Tagged offsets: a peer addresses byte {@code i} of the region with TO = {@link #iova()} + i
 * (RFC 5040 §2.1). Local SGEs name bytes by offset from the start of the region.
 *
 * <p>Thread-safety: getters may be called from any thread; {@code reregister} and
 * {@code deregister} are setup calls and must not race with posts that name the region.
 */
public interface MemoryRegion {

    /** {@return the protection domain the region belongs to} */
    ProtectionDomain pd();

    /** {@return the registered memory (the current one after a re-registration)} */
    MemorySegment segment();

    /** {@return the length in bytes ({@code segment().byteSize()})} */
    long length();

    /** {@return the {@link Access} flags} */
    int access();

    /** {@return the STag for local SGEs} */
    int lkey();

    /** {@return the STag to advertise to the peer (equal to {@link #lkey()})} */
    int rkey();

    /**
     * Tagged offset of the first byte, the address a peer uses. Providers use the segment's address
     * for native segments (VA-based, as OFED and siw do) and 0 for heap segments.
     *
     * @return the tagged offset
     */
    long iova();

    /**
     * False after {@link #deregister()} or a remote invalidation, and once the {@link
     * java.lang.foreign.Arena} of {@link #segment()} is closed: the memory is gone while the STag is
     * still registered. A peer's access to such a region is answered with a Terminate (RDMAP remote
     * protection error, invalid STag; RFC 5040 §4.8) and ends that connection only; a local work
     * request naming it completes with {@link WcStatus#LOC_PROT_ERR}. Deregister before closing the
     * arena: {@link #deregister()} returns once the provider no longer touches the memory.
     *
     * @return whether the region may be used
     */
    boolean isValid();

    /**
     * Re-registers the region ({@code ibv_rereg_mr}) over {@code segment} with {@code access}: same
     * STag index, next key ({@link Stag#withNextKey}). Valid again afterwards. Outstanding work
     * requests that named the old key complete with {@link WcStatus#LOC_PROT_ERR}.
     *
     * @return this region, with new keys
     * @throws IllegalArgumentException as {@link ProtectionDomain#registerMemory}
     * @throws IllegalStateException    if the region was deregistered
     * @param segment the memory to register
     * @param access  {@link Access} flags
     */
    MemoryRegion reregister(MemorySegment segment, int access);

    /**
     * Deregisters the region ({@code ibv_dereg_mr}) and invalidates its STag. Idempotent. Returns
     * once the provider no longer touches the memory (a segment being placed into it, a Read
     * Response being read from it, has finished): the application may free or reuse it then, and
     * not before.
     */
    void deregister();
}
