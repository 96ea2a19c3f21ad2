package org.jwarp.verbs;

/**
 * The opcode a work completion reports, with the numeric values of libibverbs'
 * {@code enum ibv_wc_opcode}. Receive-side values have bit 7 set ({@code IBV_WC_RECV = 1 << 7}).
 */
public enum WcOpcode {
    /** A SEND or SEND_WITH_INV request completed. */
    SEND(0),
    /** An RDMA_WRITE or RDMA_WRITE_WITH_IMM request completed. */
    RDMA_WRITE(1),
    /** An RDMA_READ request completed: the data has been placed in the local SGEs. */
    RDMA_READ(2),
    /** An ATOMIC_CMP_AND_SWP request completed: the original value is in the local 8-byte SGE. */
    COMP_SWAP(3),
    /** An ATOMIC_FETCH_AND_ADD request completed: the original value is in the local 8-byte SGE. */
    FETCH_ADD(4),
    /** A BIND_MW request completed: the window's new rkey works from now on. */
    BIND_MW(5),
    /** A LOCAL_INV request completed: the STag is invalid from now on. */
    LOCAL_INV(6),
    /**
     * A REG_MR request completed (kernel verbs' {@code IB_WC_REG_MR}; libibverbs has none, hence a
     * value outside its send-side range, and below the receive bit).
     */
    REG_MR(0x40),
    /** A receive buffer was filled by a Send (any of the four Send opcodes). */
    RECV(1 << 7),
    /**
     * A receive buffer was consumed by an RFC 7306 Immediate Data message (the second half of the
     * peer's RDMA_WRITE_WITH_IMM); {@link WorkCompletion#immData()} is valid and the byte length
     * is 0. iWARP carries the immediate data in a message of its own after the Write (RFC 7306
     * §6), so unlike InfiniBand the receiver is not told the Write's length.
     */
    RECV_RDMA_WITH_IMM((1 << 7) + 1);

    private final int ibvValue;

    WcOpcode(int ibvValue) {
        this.ibvValue = ibvValue;
    }

    /** {@return the value of the matching {@code IBV_WC_*} constant} */
    public int ibvValue() {
        return ibvValue;
    }

    /** {@return whether this is a completion of the receive queue} */
    public boolean isRecv() {
        return (ibvValue & (1 << 7)) != 0;
    }

    /**
     * The opcode with the given {@code IBV_WC_*} value, or {@code null}.
     *
     * @param ibvValue an {@code IBV_WC_*} opcode value
     * @return the opcode, or {@code null}
     */
    public static WcOpcode ofIbv(int ibvValue) {
        for (WcOpcode op : values()) {
            if (op.ibvValue == ibvValue) {
                return op;
            }
        }
        return null;
    }
}
