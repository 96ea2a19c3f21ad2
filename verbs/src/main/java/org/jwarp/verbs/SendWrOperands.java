package org.jwarp.verbs;

import java.lang.foreign.MemorySegment;

/**
 * The per-opcode operands of a {@link SendWr}: the remote target, immediate data, the STag to
 * invalidate, the RFC 7306 atomic operands, and the BIND_MW and REG_MR operands. Their public
 * setters and getters are {@link SendWr}'s (a package-private superclass's public members are the
 * public class's API); the request's common part (identifier, opcode, flags, SGEs) and the checks
 * that tie the two together stay in {@link SendWr}.
 */
abstract sealed class SendWrOperands permits SendWr {

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

    /** The sealed hierarchy has one leaf: the fluent setters return the request itself. */
    private SendWr self() {
        return (SendWr) this;
    }

    /**
     * Remote address and keys 0 (invalid), immediate 0, atomic operands 0 with full compare and
     * swap masks, no bind, no registration.
     */
    final void resetOperands() {
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
    }

    final void copyOperands(SendWrOperands other) {
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
    }

    /** Appends the operands {@code opcode} uses, for {@link SendWr#toString()}. */
    final void appendOperands(StringBuilder sb, WrOpcode opcode) {
        if (opcode == null) {
            return;
        }
        if (opcode.hasRemoteTarget()) {
            sb.append(", remote=").append(Stag.toString(rkey)).append('@').append(Long.toHexString(remoteAddr));
        }
        if (opcode.carriesImmediate()) {
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
        return self();
    }

    /**
     * Immediate data for RDMA_WRITE_WITH_IMM, SEND_WITH_IMM and IMMEDIATE_DATA (64 bits, RFC 7306 §4.2).
     *
     * @param immData the 64-bit immediate value
     * @return this request
     */
    public SendWr immData(long immData) {
        this.immData = immData;
        return self();
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
        return self();
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
        return self();
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
        return self();
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
        return self();
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
        return self();
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
}
