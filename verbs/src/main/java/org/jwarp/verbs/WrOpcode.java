package org.jwarp.verbs;

/**
 * Send work-request opcodes, with the numeric values of libibverbs' {@code enum ibv_wr_opcode} and
 * the RDMAP messages each becomes on the wire (RFC 5040 §4.1, RFC 7306 §4.1).
 *
 * <table>
 *   <caption>Opcode to RDMAP mapping</caption>
 *   <tr><th>opcode</th><th>RDMAP message(s)</th><th>with {@link SendFlags#SOLICITED}</th></tr>
 *   <tr><td>SEND</td><td>Send (0x3)</td><td>Send with SE (0x5)</td></tr>
 *   <tr><td>SEND_WITH_INV</td><td>Send with Invalidate (0x4)</td><td>Send with SE and Invalidate (0x6)</td></tr>
 *   <tr><td>RDMA_WRITE</td><td>RDMA Write (0x0)</td><td>not applicable</td></tr>
 *   <tr><td>RDMA_WRITE_WITH_IMM</td><td>RDMA Write (0x0) then Immediate Data (0x8)</td><td>... then Immediate Data with SE (0x9)</td></tr>
 *   <tr><td>SEND_WITH_IMM</td><td>Send (0x3) then Immediate Data (0x8)</td><td>Send (0x3) then Immediate Data with SE (0x9)</td></tr>
 *   <tr><td>IMMEDIATE_DATA</td><td>Immediate Data (0x8)</td><td>Immediate Data with SE (0x9)</td></tr>
 *   <tr><td>BIND_MW</td><td>none: binds a memory window locally, in send-queue order</td><td>not applicable</td></tr>
 *   <tr><td>LOCAL_INV</td><td>none: invalidates an STag locally, in send-queue order</td><td>not applicable</td></tr>
 *   <tr><td>REG_MR</td><td>none: registers memory on a fast-registration region locally, in send-queue order</td><td>not applicable</td></tr>
 *   <tr><td>RDMA_READ</td><td>RDMA Read Request (0x1), answered by Read Response (0x2)</td><td>not applicable</td></tr>
 *   <tr><td>ATOMIC_CMP_AND_SWP</td><td>Atomic Request (0xA, AOpCode 0x2), answered by Atomic Response (0xB)</td><td>not applicable</td></tr>
 *   <tr><td>ATOMIC_FETCH_AND_ADD</td><td>Atomic Request (0xA, AOpCode 0x0), answered by Atomic Response (0xB)</td><td>not applicable</td></tr>
 * </table>
 *
 * <p>iWARP has no "RDMA Write with Immediate" opcode: RFC 7306 §6 expresses it as a Write followed
 * by an Immediate Data message, which consumes one receive buffer at the peer exactly like a Send.
 * Nor has it "Send with Immediate": SEND_WITH_IMM is a Send followed by an Immediate Data message,
 * so it consumes <b>two</b> receives at the peer, completed in order: the first with the Send's
 * bytes ({@link WcOpcode#RECV}), the second with the immediate data and no bytes
 * ({@link WcOpcode#RECV_RDMA_WITH_IMM}, {@link WorkCompletion#WITH_IMM}). IMMEDIATE_DATA is RFC 7306's
 * Immediate Data operation on its own (libibverbs has no such opcode): eight bytes that consume
 * one receive at the peer, which completes with them as for RDMA_WRITE_WITH_IMM.
 * The RFC 7306 opcodes (0x8 to 0xB) are unknown to Linux siw, which answers them with a Terminate
 * (RDMAP remote operation, "unexpected opcode") and drops the connection: use them only with a
 * peer known to support RFC 7306.
 */
public enum WrOpcode {
    /** {@code IBV_WR_RDMA_WRITE}: writes the local SGEs into the peer's buffer ({@link SendWr#remote}). */
    RDMA_WRITE(0),
    /** {@code IBV_WR_RDMA_WRITE_WITH_IMM}: an RDMA Write, then immediate data that consumes a receive at the peer. */
    RDMA_WRITE_WITH_IMM(1),
    /** {@code IBV_WR_SEND}: a message into the peer's next posted receive. */
    SEND(2),
    /** {@code IBV_WR_RDMA_READ}: reads the peer's buffer ({@link SendWr#remote}) into the local SGEs. */
    RDMA_READ(4),
    /** {@code IBV_WR_ATOMIC_CMP_AND_SWP}: compare-and-swap on 8 bytes of the peer's memory ({@link SendWr#compareSwap}). */
    ATOMIC_CMP_AND_SWP(5),
    /** {@code IBV_WR_ATOMIC_FETCH_AND_ADD}: fetch-and-add on 8 bytes of the peer's memory ({@link SendWr#fetchAdd}). */
    ATOMIC_FETCH_AND_ADD(6),
    /** {@code IBV_WR_SEND_WITH_INV}: a Send that also invalidates the peer's STag {@link SendWr#invalidateRkey()}. */
    SEND_WITH_INV(9),
    /** {@code IBV_WR_SEND_WITH_IMM}: a Send, then immediate data (two receives at the peer). */
    SEND_WITH_IMM(3),
    /** RFC 7306's Immediate Data alone; not a libibverbs opcode (its value lies outside their range). */
    IMMEDIATE_DATA(0x100),
    /** {@code IBV_WR_LOCAL_INV}: invalidates {@link SendWr#invalidateRkey()} (a window's or a region's STag). */
    LOCAL_INV(7),
    /** {@code IBV_WR_BIND_MW}: binds a type 2 memory window ({@link SendWr#bindMw}). */
    BIND_MW(8),
    /**
     * Fast registration ({@link SendWr#regMr}), as kernel verbs' {@code IB_WR_REG_MR}: libibverbs has
     * no such opcode, so the value lies outside its range.
     */
    REG_MR(0x101);

    private static final WrOpcode[] VALUES = values();

    private final int ibvValue;

    WrOpcode(int ibvValue) {
        this.ibvValue = ibvValue;
    }

    /** {@return the value of the matching {@code IBV_WR_*} constant} */
    public int ibvValue() {
        return ibvValue;
    }

    /** {@return whether the request targets the peer's memory and so needs a remote address and rkey} */
    public boolean hasRemoteTarget() {
        return this == RDMA_WRITE || this == RDMA_WRITE_WITH_IMM || this == RDMA_READ || isAtomic();
    }

    /** {@return whether this is one of the two RFC 7306 atomics (8-byte target, 8-byte local result buffer)} */
    public boolean isAtomic() {
        return this == ATOMIC_CMP_AND_SWP || this == ATOMIC_FETCH_AND_ADD;
    }

    /** {@return whether the request uses one of the peer's IRD slots (RDMA Read and atomics, RFC 5040 §5.5 / RFC 7306 §5)} */
    public boolean consumesOrd() {
        return this == RDMA_READ || isAtomic();
    }

    /** {@return whether the request consumes a receive buffer at the peer (the Send family and immediate data)} */
    public boolean consumesPeerRecv() {
        return this == SEND || this == SEND_WITH_INV || carriesImmediate();
    }

    /** {@return whether the request is carried out locally, in send-queue order, with nothing on the wire} */
    public boolean isLocal() {
        return this == LOCAL_INV || this == BIND_MW || this == REG_MR;
    }

    /** {@return whether the request ends with an RFC 7306 Immediate Data message carrying {@link SendWr#immData()}} */
    public boolean carriesImmediate() {
        return this == RDMA_WRITE_WITH_IMM || this == SEND_WITH_IMM || this == IMMEDIATE_DATA;
    }

    /** {@return whether the request needs RFC 7306 on the connection (atomics and immediate data)} */
    public boolean needsRfc7306() {
        return isAtomic() || carriesImmediate();
    }

    /** {@return whether {@link SendFlags#INLINE} is allowed with this opcode (the local SGEs are a payload source)} */
    public boolean allowsInline() {
        return this == SEND || this == SEND_WITH_INV || this == SEND_WITH_IMM || this == RDMA_WRITE
                || this == RDMA_WRITE_WITH_IMM;
    }

    /** {@return whether {@link SendFlags#SOLICITED} has a meaning (it selects the "with SE" RDMAP opcode)} */
    public boolean allowsSolicited() {
        return this == SEND || this == SEND_WITH_INV || carriesImmediate();
    }

    /**
     * The RDMAP opcode (RFC 5040 §4.1, RFC 7306 §4.1) of the last message this request puts on the
     * wire: the one the peer acts on to complete it. For RDMA_WRITE_WITH_IMM that is the Immediate
     * Data message (0x8, or 0x9 when solicited), sent after an RDMA Write (0x0). {@code solicited}
     * only matters where {@link #allowsSolicited()} is true; -1 for the {@link #isLocal() local} requests.
     *
     * @param solicited whether the request has {@link SendFlags#SOLICITED}
     * @return the RDMAP opcode, or -1
     */
    public int rdmapOpcode(boolean solicited) {
        return switch (this) {
            case RDMA_WRITE -> 0x0;
            case RDMA_READ -> 0x1;
            case SEND -> solicited ? 0x5 : 0x3;
            case SEND_WITH_INV -> solicited ? 0x6 : 0x4;
            case RDMA_WRITE_WITH_IMM, SEND_WITH_IMM, IMMEDIATE_DATA -> solicited ? 0x9 : 0x8;
            case ATOMIC_CMP_AND_SWP, ATOMIC_FETCH_AND_ADD -> 0xA;
            case LOCAL_INV, BIND_MW, REG_MR -> -1;
        };
    }

    /** {@return the RFC 7306 §4.1 AOpCode of an Atomic Request: 0x0 FetchAdd, 0x2 CmpSwap; -1 for other opcodes} */
    public int atomicOpcode() {
        return switch (this) {
            case ATOMIC_FETCH_AND_ADD -> 0x0;
            case ATOMIC_CMP_AND_SWP -> 0x2;
            default -> -1;
        };
    }

    /** {@return the opcode a successful completion of this request reports ({@code ibv_wc_opcode})} */
    public WcOpcode completionOpcode() {
        return switch (this) {
            case SEND, SEND_WITH_INV, SEND_WITH_IMM, IMMEDIATE_DATA -> WcOpcode.SEND;
            case RDMA_WRITE, RDMA_WRITE_WITH_IMM -> WcOpcode.RDMA_WRITE;
            case RDMA_READ -> WcOpcode.RDMA_READ;
            case ATOMIC_CMP_AND_SWP -> WcOpcode.COMP_SWAP;
            case ATOMIC_FETCH_AND_ADD -> WcOpcode.FETCH_ADD;
            case LOCAL_INV -> WcOpcode.LOCAL_INV;
            case BIND_MW -> WcOpcode.BIND_MW;
            case REG_MR -> WcOpcode.REG_MR;
        };
    }

    /**
     * The opcode with the given {@code IBV_WR_*} value, or {@code null} if none is supported.
     *
     * @param ibvValue an {@code IBV_WR_*} value
     * @return the opcode, or {@code null}
     */
    public static WrOpcode ofIbv(int ibvValue) {
        for (WrOpcode op : VALUES) {
            if (op.ibvValue == ibvValue) {
                return op;
            }
        }
        return null;
    }
}
