package org.jwarp.ibverbs;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static org.jwarp.ibverbs.QpStructs.RECV_WR;
import static org.jwarp.ibverbs.QpStructs.SEND_WR;
import static org.jwarp.ibverbs.QpStructs.SGE;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendFlags;
import org.jwarp.verbs.SendWr;
import org.jwarp.verbs.WrOpcode;

/**
 * Preallocated native {@code ibv_send_wr} / {@code ibv_recv_wr} chains with their {@code ibv_sge}
 * arrays: a post writes the verbs API's requests into these slots and hands the chain to the
 * provider library. Nothing is allocated per post. One instance per queue direction; used by one
 * posting thread at a time (the verbs API's rule).
 */
final class NativeWrs {

    private final MemorySegment wrs;
    private final MemorySegment sges;
    private final MemorySegment badWr;
    private final int slots;
    private final int maxSge;
    private final long wrSize;
    private final boolean send;
    private final LkeyTable lkeys;

    NativeWrs(Arena arena, boolean send, int slots, int maxSge, LkeyTable lkeys) {
        this.send = send;
        this.slots = slots;
        this.maxSge = maxSge;
        this.lkeys = lkeys;
        this.wrSize = send ? SEND_WR.byteSize() : RECV_WR.byteSize();
        this.wrs = arena.allocate(send ? SEND_WR : RECV_WR, slots);
        this.sges = arena.allocate(SGE, (long) slots * maxSge);
        this.badWr = arena.allocate(ADDRESS);
        long sgList = send ? QpStructs.SWR_SG_LIST : QpStructs.RWR_SG_LIST;
        for (int i = 0; i < slots; i++) {
            wrs.set(JAVA_LONG, i * wrSize + sgList, sges.address() + (long) i * maxSge * SGE.byteSize());
        }
    }

    /** Requests one chain holds. */
    int slots() {
        return slots;
    }

    /** {@return the chain's first request} */
    MemorySegment first() {
        return wrs;
    }

    /** {@return where the provider library writes the failed request's address} */
    MemorySegment badWr() {
        return badWr;
    }

    /** Index in the chain of the request {@code badWr} points at. */
    int badIndex() {
        long bad = badWr.get(JAVA_LONG, 0);
        return bad == 0 ? 0 : (int) ((bad - wrs.address()) / wrSize);
    }

    /**
     * Writes {@code wr} into slot {@code slot}, linked to the next slot unless it is the last.
     *
     * @return {@link PostStatus#OK} or the rejection code (not yet indexed)
     */
    int writeSend(int slot, SendWr wr, boolean last, int maxInline, boolean atomics) {
        int check = wr.check(maxSge, maxInline, atomics, true);
        if (check != PostStatus.OK) {
            return check;
        }
        WrOpcode op = wr.opcode();
        if (op == WrOpcode.IMMEDIATE_DATA || op == WrOpcode.REG_MR || op == WrOpcode.BIND_MW) {
            return PostStatus.UNSUPPORTED_OPCODE;               // no libibverbs opcode, or not bound here
        }
        long at = slot * wrSize;
        int sge = writeSges(slot, wr.numSge(), wr, (wr.flags() & SendFlags.INLINE) != 0);
        if (sge != PostStatus.OK) {
            return sge;
        }
        wrs.set(JAVA_LONG, at + QpStructs.SWR_WR_ID, wr.wrId());
        link(at + QpStructs.SWR_NEXT, slot, last);
        wrs.set(JAVA_INT, at + QpStructs.SWR_NUM_SGE, wr.numSge());
        wrs.set(JAVA_INT, at + QpStructs.SWR_OPCODE, op.ibvValue());
        wrs.set(JAVA_INT, at + QpStructs.SWR_SEND_FLAGS, wr.flags());
        int word = 0;
        if (op.carriesImmediate()) {
            word = Integer.reverseBytes((int) wr.immData());          // __be32 imm_data
        } else if (op == WrOpcode.SEND_WITH_INV || op == WrOpcode.LOCAL_INV) {
            word = wr.invalidateRkey();
        }
        wrs.set(JAVA_INT, at + QpStructs.SWR_IMM_DATA, word);
        if (op.isAtomic()) {
            wrs.set(JAVA_LONG, at + QpStructs.SWR_ATOMIC_REMOTE_ADDR, wr.remoteAddr());
            wrs.set(JAVA_LONG, at + QpStructs.SWR_ATOMIC_COMPARE_ADD, wr.compareAdd());
            wrs.set(JAVA_LONG, at + QpStructs.SWR_ATOMIC_SWAP, wr.swap());
            wrs.set(JAVA_INT, at + QpStructs.SWR_ATOMIC_RKEY, wr.rkey());
        } else if (op.hasRemoteTarget()) {
            wrs.set(JAVA_LONG, at + QpStructs.SWR_REMOTE_ADDR, wr.remoteAddr());
            wrs.set(JAVA_INT, at + QpStructs.SWR_RKEY, wr.rkey());
        }
        return PostStatus.OK;
    }

    /** As {@link #writeSend} for a receive request. */
    int writeRecv(int slot, RecvWr wr, boolean last) {
        int check = wr.check(maxSge);
        if (check != PostStatus.OK) {
            return check;
        }
        long at = slot * wrSize;
        int sge = writeSges(slot, wr.numSge(), wr, false);
        if (sge != PostStatus.OK) {
            return sge;
        }
        wrs.set(JAVA_LONG, at + QpStructs.RWR_WR_ID, wr.wrId());
        link(at + QpStructs.RWR_NEXT, slot, last);
        wrs.set(JAVA_INT, at + QpStructs.RWR_NUM_SGE, wr.numSge());
        return PostStatus.OK;
    }

    private void link(long nextField, int slot, boolean last) {
        wrs.set(JAVA_LONG, nextField, last ? 0L : wrs.address() + (slot + 1) * wrSize);
    }

    /** Each SGE's (lkey, offset) becomes (address, lkey); an inline SGE's source is read by address. */
    private int writeSges(int slot, int n, org.jwarp.verbs.ScatterGatherList list, boolean inline) {
        long base = (long) slot * maxSge * SGE.byteSize();
        for (int i = 0; i < n; i++) {
            long at = base + i * SGE.byteSize();
            int lkey = list.sgeLkey(i);
            long addr;
            if (inline && list instanceof SendWr s && s.sgeInlineSource(i) != null) {
                MemorySegment src = s.sgeInlineSource(i);
                if (!src.isNative() || list.sgeOffset(i) + list.sgeLength(i) > src.byteSize()) {
                    return PostStatus.INVALID_WR;
                }
                addr = src.address() + list.sgeOffset(i);
                lkey = 0;
            } else {
                long region = lkeys.address(lkey);
                if (region < 0) {
                    return PostStatus.INVALID_WR;                // no region of this device has the lkey
                }
                addr = region + list.sgeOffset(i);
            }
            sges.set(JAVA_LONG, at + QpStructs.SGE_ADDR, addr);
            sges.set(JAVA_INT, at + QpStructs.SGE_LENGTH, list.sgeLength(i));
            sges.set(JAVA_INT, at + QpStructs.SGE_LKEY, lkey);
        }
        return PostStatus.OK;
    }

    /** {@code send} only: whether this chain is of send requests. */
    boolean isSend() {
        return send;
    }
}
