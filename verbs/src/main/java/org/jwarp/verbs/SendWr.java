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
public final class SendWr implements ScatterGatherList {

    /** Default SGE capacity of {@link #SendWr()}. */
    public static final int DEFAULT_MAX_SGE = 4;

    private long wrId;
    private WrOpcode opcode;
    private int flags;

    private final int[] sgeLkey;
    private final long[] sgeOffset;
    private final int[] sgeLength;
    private final MemorySegment[] sgeInline;
    private int numSge;

    private long remoteAddr;
    private int rkey;
    private long immData;
    private int invalidateRkey;
    private long compareAdd;
    private long swap;
    private long compareMask;
    private long swapOrAddMask;
    private int bindMwRkey;
    private int bindNewRkey;
    private int bindMrLkey;
    private long bindOffset;
    private long bindLength;
    private int bindAccess;
    private int regStag;
    private int regNewStag;
    private MemorySegment regSegment;
    private long regIova;
    private int regAccess;

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
        if (maxSge < 1 || maxSge > 0xFFFF) {
            throw new IllegalArgumentException("SendWr SGE capacity must be in 1..65535: " + maxSge);
        }
        sgeLkey = new int[maxSge];
        sgeOffset = new long[maxSge];
        sgeLength = new int[maxSge];
        sgeInline = new MemorySegment[maxSge];
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
        clearSges();
        remoteAddr = 0;
        rkey = Stag.INVALID;
        immData = 0;
        invalidateRkey = Stag.INVALID;
        compareAdd = 0;
        swap = 0;
        compareMask = -1L;
        swapOrAddMask = -1L;
        bindMwRkey = Stag.INVALID;
        bindNewRkey = Stag.INVALID;
        bindMrLkey = Stag.INVALID;
        bindOffset = 0;
        bindLength = 0;
        bindAccess = 0;
        regStag = Stag.INVALID;
        regNewStag = Stag.INVALID;
        regSegment = null;
        regIova = 0;
        regAccess = 0;
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
        for (int i = 0; i < numSge; i++) {
            sgeInline[i] = null;
        }
        numSge = 0;
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
        int i = nextSgeSlot(offset, length);
        sgeLkey[i] = lkey;
        sgeOffset[i] = offset;
        sgeLength[i] = length;
        sgeInline[i] = null;
        numSge = i + 1;
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
        int i = nextSgeSlot(offset, length);
        sgeLkey[i] = Stag.INVALID;
        sgeOffset[i] = offset;
        sgeLength[i] = length;
        sgeInline[i] = source;
        numSge = i + 1;
        return this;
    }

    private int nextSgeSlot(long offset, int length) {
        if (numSge == sgeLkey.length) {
            throw new IllegalStateException("SendWr holds at most " + sgeLkey.length
                    + " SGEs; create it with new SendWr(maxSge)");
        }
        if (offset < 0 || length < 0) {
            throw new IllegalArgumentException("SGE offset and length must be >= 0: offset=" + offset
                    + " length=" + length);
        }
        return numSge;
    }

    /**
     * Overwrites the length of SGE {@code i} (e.g. to vary the message size of a prepared request).
     *
     * @param i      the SGE's index, below {@link #numSge()}
     * @param length the new length in bytes
     * @return this request
     */
    public SendWr sgeLength(int i, int length) {
        checkSgeIndex(i);
        if (length < 0) {
            throw new IllegalArgumentException("SGE length must be >= 0: " + length);
        }
        sgeLength[i] = length;
        return this;
    }

    /**
     * Target of RDMA_WRITE(_WITH_IMM), RDMA_READ and atomics: the peer's tagged offset (TO) and STag.
     *
     * @param remoteAddr the tagged offset in the peer's buffer
     * @param rkey       the peer's STag for that buffer
     * @return this request
     */
    public SendWr remote(long remoteAddr, int rkey) {
        this.remoteAddr = remoteAddr;
        this.rkey = rkey;
        return this;
    }

    /**
     * Immediate data for RDMA_WRITE_WITH_IMM, SEND_WITH_IMM and IMMEDIATE_DATA (64 bits, RFC 7306 §4.2).
     *
     * @param immData the 64-bit immediate value
     * @return this request
     */
    public SendWr immData(long immData) {
        this.immData = immData;
        return this;
    }

    /**
     * BIND_MW ({@code ibv_bind_mw} with a type 2 window): binds the window whose current rkey is
     * {@code mwRkey} to {@code [offset, offset + length)} of {@code mr} with {@code access} (remote
     * flags of {@link Access}), under {@code newRkey}: the same index with another key, as OFED's
     * {@code ibv_inc_rkey} gives ({@link MemoryWindow#nextRkey()}). The window is then usable only
     * through this queue pair; the old rkey stops working when the bind completes.
     *
     * @param mwRkey  the window's current rkey
     * @param newRkey the rkey the window has after the bind
     * @param mr      the region the window exposes part of
     * @param offset  byte offset of the window in {@code mr}
     * @param length  the window's length in bytes
     * @param access  remote {@link Access} flags of the window
     * @return this request
     */
    public SendWr bindMw(int mwRkey, int newRkey, MemoryRegion mr, long offset, long length, int access) {
        return bindMw(mwRkey, newRkey, mr.lkey(), offset, length, access);
    }

    /**
     * {@link #bindMw(int, int, MemoryRegion, long, long, int)} with the region named by its lkey.
     *
     * @param mwRkey  the window's current rkey
     * @param newRkey the rkey the window has after the bind
     * @param mrLkey  the lkey of the region the window exposes part of
     * @param offset  byte offset of the window in the region
     * @param length  the window's length in bytes
     * @param access  remote {@link Access} flags of the window
     * @return this request
     */
    public SendWr bindMw(int mwRkey, int newRkey, int mrLkey, long offset, long length, int access) {
        this.bindMwRkey = mwRkey;
        this.bindNewRkey = newRkey;
        this.bindMrLkey = mrLkey;
        this.bindOffset = offset;
        this.bindLength = length;
        this.bindAccess = access;
        return this;
    }

    /** {@return the BIND_MW window's current rkey} */
    public int bindMwRkey() {
        return bindMwRkey;
    }

    /** {@return the rkey a BIND_MW gives the window} */
    public int bindNewRkey() {
        return bindNewRkey;
    }

    /** {@return the lkey of the region a BIND_MW exposes} */
    public int bindMrLkey() {
        return bindMrLkey;
    }

    /** {@return the BIND_MW window's byte offset in its region} */
    public long bindOffset() {
        return bindOffset;
    }

    /** {@return the BIND_MW window's length in bytes} */
    public long bindLength() {
        return bindLength;
    }

    /** {@return the BIND_MW window's remote {@link Access} flags} */
    public int bindAccess() {
        return bindAccess;
    }

    /**
     * REG_MR (fast registration, as kernel verbs' {@code IB_WR_REG_MR} and iSER's per-I/O
     * registration): registers {@code segment} at tagged offset {@code iova} with {@code access} on
     * the region {@code mr} made by {@link ProtectionDomain#allocFastRegMr}, under {@code newKey}
     * (the same index, the next key: {@link Stag#withNextKey}). The old key stops working when the
     * request completes; {@link MemoryRegion#lkey()} and {@code rkey()} then give the new one. The
     * segment must stay alive until the region is invalidated (LOCAL_INV) or registered again.
     *
     * @param mr      the fast-registration region
     * @param newKey  the STag the region has after the registration
     * @param segment the native memory to register
     * @param iova    the tagged offset of the segment's first byte
     * @param access  {@link Access} flags
     * @return this request
     */
    public SendWr regMr(MemoryRegion mr, int newKey, MemorySegment segment, long iova, int access) {
        this.regStag = mr.lkey();
        this.regNewStag = newKey;
        this.regSegment = segment;
        this.regIova = iova;
        this.regAccess = access;
        return this;
    }

    /** {@return the STag of the region a REG_MR registers} */
    public int regStag() {
        return regStag;
    }

    /** {@return the STag a REG_MR gives the region} */
    public int regNewStag() {
        return regNewStag;
    }

    /** {@return the memory a REG_MR registers, or {@code null}} */
    public MemorySegment regSegment() {
        return regSegment;
    }

    /** {@return the tagged offset of a REG_MR's first byte} */
    public long regIova() {
        return regIova;
    }

    /** {@return the {@link Access} flags of a REG_MR} */
    public int regAccess() {
        return regAccess;
    }

    /**
     * The peer STag that SEND_WITH_INV invalidates (RFC 5040 §5.3, RDMAP opcode 0x4/0x6), or that LOCAL_INV invalidates here.
     *
     * @param rkey the STag to invalidate
     * @return this request
     */
    public SendWr invalidateRkey(int rkey) {
        this.invalidateRkey = rkey;
        return this;
    }

    /**
     * Operands of ATOMIC_CMP_AND_SWP (RFC 7306 §4.1): if {@code (*target ^ compare) & compareMask}
     * is 0, {@code *target = (*target & ~swapMask) | (swap & swapMask)}. The plain OFED operation
     * has both masks all ones ({@link #compareSwap(long, long)}).
     *
     * @param compare     the value compared with the target
     * @param swap        the value written on a match
     * @param compareMask the bits compared
     * @param swapMask    the bits written
     * @return this request
     */
    public SendWr compareSwap(long compare, long swap, long compareMask, long swapMask) {
        this.compareAdd = compare;
        this.swap = swap;
        this.compareMask = compareMask;
        this.swapOrAddMask = swapMask;
        return this;
    }

    /**
     * OFED compare-and-swap: full 64-bit compare, full 64-bit swap.
     *
     * @param compare the value compared with the target
     * @param swap    the value written on a match
     * @return this request
     */
    public SendWr compareSwap(long compare, long swap) {
        return compareSwap(compare, swap, -1L, -1L);
    }

    /**
     * Operands of ATOMIC_FETCH_AND_ADD (RFC 7306 §4.1): adds {@code add} to the 64-bit target. A bit
     * set in {@code addMask} marks the most significant bit of a field; no carry leaves that bit.
     * {@code addMask = 0} is the plain OFED 64-bit add ({@link #fetchAdd(long)}).
     *
     * @param add     the value added
     * @param addMask the field boundaries, or 0 for one 64-bit field
     * @return this request
     */
    public SendWr fetchAdd(long add, long addMask) {
        this.compareAdd = add;
        this.swap = 0;
        this.compareMask = -1L;
        this.swapOrAddMask = addMask;
        return this;
    }

    /**
     * OFED fetch-and-add: plain 64-bit add.
     *
     * @param add the value added
     * @return this request
     */
    public SendWr fetchAdd(long add) {
        return fetchAdd(add, 0L);
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
        return sgeLkey.length;
    }

    /** {@return the number of SGEs} */
    public int numSge() {
        return numSge;
    }

    /**
     * lkey of SGE {@code i}; {@link Stag#INVALID} for an inline source.
     *
     * @param i the SGE's index, below {@link #numSge()}
     * @return the lkey
     */
    public int sgeLkey(int i) {
        checkSgeIndex(i);
        return sgeLkey[i];
    }

    /**
     * The byte offset of SGE {@code i} in its region (or its inline source).
     *
     * @param i the SGE's index, below {@link #numSge()}
     * @return the offset
     */
    public long sgeOffset(int i) {
        checkSgeIndex(i);
        return sgeOffset[i];
    }

    /**
     * The length in bytes of SGE {@code i}.
     *
     * @param i the SGE's index, below {@link #numSge()}
     * @return the length
     */
    public int sgeLength(int i) {
        checkSgeIndex(i);
        return sgeLength[i];
    }

    /**
     * The unregistered source of SGE {@code i}, or {@code null} for a registered SGE.
     *
     * @param i the SGE's index, below {@link #numSge()}
     * @return the source, or {@code null}
     */
    public MemorySegment sgeInlineSource(int i) {
        checkSgeIndex(i);
        return sgeInline[i];
    }

    /**
     * Sum of the SGE lengths (the message length).
     *
     * @return the sum in bytes
     */
    public long totalLength() {
        long total = 0;
        for (int i = 0; i < numSge; i++) {
            total += sgeLength[i];
        }
        return total;
    }

    /** {@return the tagged offset in the peer's buffer} */
    public long remoteAddr() {
        return remoteAddr;
    }

    /** {@return the peer's STag} */
    public int rkey() {
        return rkey;
    }

    /** {@return the 64-bit immediate data} */
    public long immData() {
        return immData;
    }

    /** {@return the STag SEND_WITH_INV or LOCAL_INV invalidates} */
    public int invalidateRkey() {
        return invalidateRkey;
    }

    /**
     * Compare value (CMP_AND_SWP) or add value (FETCH_AND_ADD).
     *
     * @return the value
     */
    public long compareAdd() {
        return compareAdd;
    }

    /** {@return the swap value of CMP_AND_SWP} */
    public long swap() {
        return swap;
    }

    /**
     * Compare mask of CMP_AND_SWP (all ones for FETCH_AND_ADD).
     *
     * @return the mask
     */
    public long compareMask() {
        return compareMask;
    }

    /**
     * Swap mask (CMP_AND_SWP) or add mask (FETCH_AND_ADD).
     *
     * @return the mask
     */
    public long swapOrAddMask() {
        return swapOrAddMask;
    }

    private void checkSgeIndex(int i) {
        if (i < 0 || i >= numSge) {
            throw new IndexOutOfBoundsException("SGE index " + i + " out of 0.." + (numSge - 1));
        }
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
        } else {
            for (int i = 0; i < numSge; i++) {
                if (sgeInline[i] != null) {
                    return PostStatus.INVALID_WR;
                }
            }
        }
        if (opcode.isAtomic() && (numSge != 1 || sgeLength[0] != 8)) {
            return PostStatus.INVALID_WR;
        }
        if (opcode.isLocal() && (numSge != 0 || inline)) {
            return PostStatus.INVALID_WR;                   // a local operation moves no data
        }
        if (opcode == WrOpcode.REG_MR && (regSegment == null || !regSegment.isNative())) {
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
        if (other.numSge > sgeLkey.length) {
            throw new IllegalStateException("cannot copy " + other.numSge + " SGEs into a SendWr of capacity "
                    + sgeLkey.length);
        }
        clearSges();
        wrId = other.wrId;
        opcode = other.opcode;
        flags = other.flags;
        System.arraycopy(other.sgeLkey, 0, sgeLkey, 0, other.numSge);
        System.arraycopy(other.sgeOffset, 0, sgeOffset, 0, other.numSge);
        System.arraycopy(other.sgeLength, 0, sgeLength, 0, other.numSge);
        System.arraycopy(other.sgeInline, 0, sgeInline, 0, other.numSge);
        numSge = other.numSge;
        remoteAddr = other.remoteAddr;
        rkey = other.rkey;
        immData = other.immData;
        invalidateRkey = other.invalidateRkey;
        compareAdd = other.compareAdd;
        swap = other.swap;
        compareMask = other.compareMask;
        swapOrAddMask = other.swapOrAddMask;
        bindMwRkey = other.bindMwRkey;
        bindNewRkey = other.bindNewRkey;
        bindMrLkey = other.bindMrLkey;
        bindOffset = other.bindOffset;
        bindLength = other.bindLength;
        bindAccess = other.bindAccess;
        regStag = other.regStag;
        regNewStag = other.regNewStag;
        regSegment = other.regSegment;
        regIova = other.regIova;
        regAccess = other.regAccess;
        return this;
    }

    @Override
    public String toString() {
        StringBuilder sb = new StringBuilder("SendWr{wrId=").append(wrId).append(", opcode=").append(opcode)
                .append(", flags=").append(SendFlags.toString(flags)).append(", sges=[");
        for (int i = 0; i < numSge; i++) {
            sb.append(i == 0 ? "" : ", ");
            if (sgeInline[i] != null) {
                sb.append("inline+");
            } else {
                sb.append(Stag.toString(sgeLkey[i])).append('+');
            }
            sb.append(sgeOffset[i]).append('/').append(sgeLength[i]);
        }
        sb.append(']');
        if (opcode != null && opcode.hasRemoteTarget()) {
            sb.append(", remote=").append(Stag.toString(rkey)).append('@').append(Long.toHexString(remoteAddr));
        }
        if (opcode != null && opcode.carriesImmediate()) {
            sb.append(", imm=0x").append(Long.toHexString(immData));
        }
        if (opcode == WrOpcode.BIND_MW) {
            sb.append(", bind ").append(Stag.toString(bindMwRkey)).append("->").append(Stag.toString(bindNewRkey))
                    .append(" over ").append(Stag.toString(bindMrLkey)).append('+').append(bindOffset).append('/')
                    .append(bindLength).append(" access ").append(bindAccess);
        }
        if (opcode == WrOpcode.SEND_WITH_INV || opcode == WrOpcode.LOCAL_INV) {
            sb.append(", inv=").append(Stag.toString(invalidateRkey));
        }
        return sb.append('}').toString();
    }
}
