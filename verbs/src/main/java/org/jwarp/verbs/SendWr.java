package org.jwarp.verbs;

import java.lang.foreign.MemorySegment;

/**
 * A send work request ({@code ibv_send_wr}), mutable and reusable so that a steady stream of posts
 * allocates nothing: create one per outstanding slot at setup, then refill it with the fluent
 * setters (each returns {@code this}) or {@link #reset()} it.
 *
 * <p>The scatter/gather list has a fixed capacity chosen at construction and is stored in
 * preallocated parallel arrays. Each entry is either a registered SGE (lkey, offset from the start
 * of the region, length: {@link #addSge(MemoryRegion, long, int)}) or, for inline requests only, an
 * unregistered source segment ({@link #addInlineSge}). Offsets are relative to the region, not
 * virtual addresses: Java has no pointer arithmetic to make VA-based SGEs natural, and the STag
 * table check (lkey valid, in this PD, range inside the region) stays the provider's.
 *
 * <p>Ownership: the provider reads the request during the {@code postSend} call only (it copies
 * what it needs into its own send-queue slot, and copies inline payloads), so the object may be
 * refilled as soon as {@code postSend} returns. Not thread-safe: fill and post it from one thread.
 *
 * <p>Work-request lists are posted as an array plus a count ({@link QueuePair#postSend(SendWr[], int)});
 * there is no {@code next} pointer (docs/design.md: no linked lists inside work requests).
 *
 * <p>Immediate data: RFC 7306 §4.3 carries 8 bytes of immediate data, OFED's {@code imm_data} is
 * 32 bits. This API carries all 64 bits ({@link #immData(long)}). A 32-bit OFED value is carried
 * zero-extended, i.e. in the last (least significant, big-endian) four bytes of the Immediate Data
 * field, and read back with {@link WorkCompletion#immData32()}.
 */
public final class SendWr extends SendWrOperands implements ScatterGatherList {

    /** Default SGE capacity of {@link #SendWr()}. */
    public static final int DEFAULT_MAX_SGE = 4;

    private long wrId;
    private WrOpcode opcode;
    private int flags;
    private final SgeArray sges;

    /** A request with room for {@link #DEFAULT_MAX_SGE} SGEs. */
    public SendWr() {
        this(DEFAULT_MAX_SGE);
    }

    /**
     * A request with room for {@code maxSge} SGEs.
     *
     * @throws IllegalArgumentException if {@code maxSge} is not in 1..65535
     * @param maxSge the SGE capacity
     */
    public SendWr(int maxSge) {
        sges = new SgeArray("SendWr", maxSge, true);
        reset();
    }

    /**
     * Clears every field to its default: wrId 0, no opcode, no flags, no SGEs, remote address and
     * keys 0, immediate 0, atomic operands 0 with full compare and swap masks and a plain (unmasked)
     * add. Returns {@code this}.
     *
     * @return this request
     */
    public SendWr reset() {
        wrId = 0;
        opcode = null;
        flags = 0;
        sges.clear();
        resetOperands();
        return this;
    }

    // ---- setters (fluent, allocation-free) --------------------------------------------------

    /**
     * The caller's identifier, returned in the completion.
     *
     * @param wrId any value; the provider does not interpret it
     * @return this request
     */
    public SendWr wrId(long wrId) {
        this.wrId = wrId;
        return this;
    }

    /**
     * Sets what the request does.
     *
     * @param opcode the operation
     * @return this request
     */
    public SendWr opcode(WrOpcode opcode) {
        this.opcode = opcode;
        return this;
    }

    /**
     * Replaces the flags ({@link SendFlags} bits).
     *
     * @param flags {@link SendFlags} bits
     * @return this request
     */
    public SendWr flags(int flags) {
        this.flags = flags;
        return this;
    }

    /**
     * Adds {@link SendFlags} bits.
     *
     * @param flags {@link SendFlags} bits to add
     * @return this request
     */
    public SendWr addFlags(int flags) {
        this.flags |= flags;
        return this;
    }

    /**
     * Sets or clears {@link SendFlags#SIGNALED}.
     *
     * @param signaled whether the request produces a completion on success
     * @return this request
     */
    public SendWr signaled(boolean signaled) {
        flags = signaled ? flags | SendFlags.SIGNALED : flags & ~SendFlags.SIGNALED;
        return this;
    }

    /**
     * Removes all SGEs (capacity unchanged).
     *
     * @return this request
     */
    public SendWr clearSges() {
        sges.clear();
        return this;
    }

    /**
     * Appends a registered SGE: {@code length} bytes at {@code offset} from the start of {@code mr}.
     * The provider checks the range and rights against its STag table when the request is posted;
     * a failure becomes a {@link WcStatus#LOC_PROT_ERR} completion.
     *
     * @throws IllegalStateException    if the capacity is exhausted (a sizing bug, not a data-path condition)
     * @throws IllegalArgumentException if {@code offset} or {@code length} is negative
     * @param mr     the registered region
     * @param offset byte offset from the start of the region
     * @param length bytes
     * @return this request
     */
    public SendWr addSge(MemoryRegion mr, long offset, int length) {
        return addSge(mr.lkey(), offset, length);
    }

    /**
     * As {@link #addSge(MemoryRegion, long, int)}, naming the region by its lkey.
     *
     * @param lkey   the region's lkey
     * @param offset byte offset from the start of the region
     * @param length bytes
     * @return this request
     */
    public SendWr addSge(int lkey, long offset, int length) {
        sges.add(lkey, offset, length, null);
        return this;
    }

    /**
     * Appends an unregistered payload source, legal only with {@link SendFlags#INLINE}: the
     * provider copies {@code length} bytes at {@code offset} of {@code source} during the post.
     * Any readable segment will do (heap or native).
     *
     * @param source the payload's segment
     * @param offset byte offset in {@code source}
     * @param length bytes
     * @return this request
     * @throws IllegalArgumentException if {@code source} is null or {@code offset} or {@code length} is negative
     * @throws IllegalStateException    if the capacity is exhausted
     */
    public SendWr addInlineSge(MemorySegment source, long offset, int length) {
        if (source == null) {
            throw new IllegalArgumentException("inline SGE source segment is null");
        }
        sges.add(Stag.INVALID, offset, length, source);
        return this;
    }

    /**
     * Overwrites the length of SGE {@code i} (e.g. to vary the message size of a prepared request).
     *
     * @param i      the SGE's index, below {@link #numSge()}
     * @param length the new length in bytes
     * @return this request
     */
    public SendWr sgeLength(int i, int length) {
        sges.setLength(i, length);
        return this;
    }

    // ---- getters -----------------------------------------------------------------------------

    /** {@return the caller's identifier} */
    public long wrId() {
        return wrId;
    }

    /**
     * The opcode, or {@code null} if none was set (such a request is rejected as {@link PostStatus#INVALID_WR}).
     *
     * @return the opcode, or {@code null}
     */
    public WrOpcode opcode() {
        return opcode;
    }

    /** {@return the {@link SendFlags} bits} */
    public int flags() {
        return flags;
    }

    /**
     * Whether a {@link SendFlags} bit is set.
     *
     * @param flag the bit
     * @return whether it is set
     */
    public boolean hasFlag(int flag) {
        return (flags & flag) != 0;
    }

    /** {@return the SGE capacity} */
    public int maxSge() {
        return sges.capacity();
    }

    @Override
    public int numSge() {
        return sges.count();
    }

    /**
     * lkey of SGE {@code i}; {@link Stag#INVALID} for an inline source.
     *
     * @param i the SGE's index, below {@link #numSge()}
     * @return the lkey
     */
    @Override
    public int sgeLkey(int i) {
        return sges.lkey(i);
    }

    /**
     * The byte offset of SGE {@code i} in its region (or its inline source).
     *
     * @param i the SGE's index, below {@link #numSge()}
     * @return the offset
     */
    @Override
    public long sgeOffset(int i) {
        return sges.offset(i);
    }

    @Override
    public int sgeLength(int i) {
        return sges.length(i);
    }

    /**
     * The unregistered source of SGE {@code i}, or {@code null} for a registered SGE.
     *
     * @param i the SGE's index, below {@link #numSge()}
     * @return the source, or {@code null}
     */
    public MemorySegment sgeInlineSource(int i) {
        return sges.inlineSource(i);
    }

    /**
     * Sum of the SGE lengths (the message length).
     *
     * @return the sum in bytes
     */
    @Override
    public long totalLength() {
        return sges.totalLength();
    }

    // ---- validation shared by providers -------------------------------------------------------

    /**
     * The checks every provider makes on a posted request before queueing it, as a
     * {@link PostStatus} reason code ({@link PostStatus#OK} if none fails). Allocation-free.
     *
     * @param maxSge    the queue pair's {@code maxSendSge}
     * @param maxInline the queue pair's {@code maxInlineData}
     * @param atomics   whether the provider carries RFC 7306 atomics on this queue pair
     * @param immediate whether the provider carries RFC 7306 immediate data on this queue pair
     * @return a {@link PostStatus} code
     */
    public int check(int maxSge, int maxInline, boolean atomics, boolean immediate) {
        int numSge = sges.count();
        if (opcode == null || (flags & ~SendFlags.ALL) != 0) {
            return PostStatus.INVALID_WR;
        }
        if (numSge > maxSge) {
            return PostStatus.TOO_MANY_SGE;
        }
        if ((opcode.isAtomic() && !atomics) || (opcode.carriesImmediate() && !immediate)) {
            return PostStatus.UNSUPPORTED_OPCODE;
        }
        boolean inline = (flags & SendFlags.INLINE) != 0;
        if (inline) {
            if (!opcode.allowsInline()) {
                return PostStatus.INVALID_WR;
            }
            if (totalLength() > maxInline) {
                return PostStatus.INLINE_TOO_LONG;
            }
        } else if (sges.hasInlineSource()) {
            return PostStatus.INVALID_WR;
        }
        if (opcode.isAtomic() && (numSge != 1 || sges.length(0) != 8)) {
            return PostStatus.INVALID_WR;
        }
        if (opcode.isLocal() && (numSge != 0 || inline)) {
            return PostStatus.INVALID_WR;                   // a local operation moves no data
        }
        if (opcode == WrOpcode.REG_MR && (regSegment() == null || !regSegment().isNative())) {
            return PostStatus.INVALID_WR;                   // the engine places into native memory only
        }
        if (opcode == WrOpcode.IMMEDIATE_DATA && numSge != 0) {
            return PostStatus.INVALID_WR;                   // RFC 7306 §4.2: eight bytes in the header, no payload
        }
        return PostStatus.OK;
    }

    /**
     * Copies every field of {@code other} into this request (SGEs beyond this capacity are a bug).
     *
     * @param other the request to copy
     * @return this request
     */
    public SendWr copyFrom(SendWr other) {
        sges.copyFrom(other.sges);
        wrId = other.wrId;
        opcode = other.opcode;
        flags = other.flags;
        copyOperands(other);
        return this;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("SendWr{wrId=").append(wrId).append(", opcode=").append(opcode)
                .append(", flags=").append(SendFlags.toString(flags)).append(", sges=");
        sges.appendTo(sb);
        appendOperands(sb, opcode);
        return sb.append('}').toString();
    }
}
