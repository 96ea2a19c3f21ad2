package org.jwarp.verbs;

/**
 * Send work-request flags, as {@code int} bits with the values of libibverbs'
 * {@code enum ibv_send_flags}.
 */
public final class SendFlags {

    /**
     * Local fence: the work request is not started until every earlier RDMA Read (and RFC 7306
     * atomic) on this send queue has completed. iWARP does not order a Read against later Sends or
     * Writes (RFC 5040 §5.5, Appendix B): a Read Response may already carry data from a later
     * Write unless the later operation is fenced.
     */
    public static final int FENCE = 1;
    /**
     * Generate a work completion for this request. Without it (and without
     * {@link QpInitAttr#signalAll()}) a successful request produces no completion but still holds
     * its send-queue slot until a later signaled request completes; an unsignaled request that
     * fails always produces a completion. Post a signaled request at least every
     * {@code maxSendWr} requests (seed 003, "periodic signaling").
     */
    public static final int SIGNALED = 1 << 1;
    /**
     * Solicited event: the Send (RDMAP opcode 0x5 or 0x6) or the Immediate Data message of an RDMA
     * Write with immediate (RFC 7306 opcode 0x9) asks the receiver to raise a solicited event, which
     * wakes a completion channel armed with {@code requestNotify(true)}.
     */
    public static final int SOLICITED = 1 << 2;
    /**
     * Inline: the provider copies the payload while the post call runs, so the source buffers may
     * be reused as soon as the post returns and need not be registered (see
     * {@link SendWr#addInlineSge}). The total length must not exceed the queue pair's
     * {@link QpInitAttr#maxInlineData()}. Allowed for SEND, SEND_WITH_INV, RDMA_WRITE and
     * RDMA_WRITE_WITH_IMM.
     */
    public static final int INLINE = 1 << 3;

    /** All flags defined here. */
    public static final int ALL = FENCE | SIGNALED | SOLICITED | INLINE;

    private SendFlags() {
    }

    /**
     * Names of the bits, e.g. {@code SIGNALED|INLINE}; {@code 0} for none.
     *
     * @param flags {@link SendFlags} bits
     * @return the names
     */
    public static String toString(int flags) {
        if (flags == 0) {
            return "0";
        }
        StringBuilder sb = new StringBuilder();
        String[] names = {"FENCE", "SIGNALED", "SOLICITED", "INLINE"};
        for (int i = 0; i < names.length; i++) {
            if ((flags & (1 << i)) != 0) {
                sb.append(sb.isEmpty() ? "" : "|").append(names[i]);
            }
        }
        if ((flags & ~ALL) != 0) {
            sb.append(sb.isEmpty() ? "" : "|").append(String.format("0x%x", flags & ~ALL));
        }
        return sb.toString();
    }
}
