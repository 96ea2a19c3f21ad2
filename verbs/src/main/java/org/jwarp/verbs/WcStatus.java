package org.jwarp.verbs;

/**
 * Work-completion status, in the order and with the numeric values of libibverbs'
 * {@code enum ibv_wc_status} ({@link #ibvValue()} equals {@link #ordinal()}).
 *
 * <p>How an iWARP provider maps its conditions (following Linux siw's {@code siw_wc_status} use):
 * <ul>
 *   <li>{@link #LOC_LEN_ERR}: a received message longer than the posted receive buffer, or an SGE
 *       list longer than the region it names.</li>
 *   <li>{@link #LOC_PROT_ERR}: an lkey that does not name a valid region of this protection domain,
 *       an SGE outside its region, or missing local access rights.</li>
 *   <li>{@link #LOC_QP_OP_ERR}: the request cannot be carried out on this queue pair (e.g. inline
 *       data too long for the QP, an opcode the connection does not support).</li>
 *   <li>{@link #WR_FLUSH_ERR}: the queue pair entered {@link QpState#ERROR} before the request was
 *       processed; every outstanding and later-posted request completes with this status.</li>
 *   <li>{@link #REM_ACCESS_ERR}: the peer sent a Terminate for a protection error (RDMAP remote
 *       protection, DDP tagged buffer errors) caused by this request.</li>
 *   <li>{@link #REM_OP_ERR}: the peer sent a Terminate for a remote operation error (e.g.
 *       unexpected opcode for RFC 7306 messages sent to siw, no receive buffer posted).</li>
 *   <li>{@link #REM_INV_REQ_ERR}: the peer found the request malformed (e.g. a Send with
 *       Invalidate of an STag that cannot be invalidated).</li>
 *   <li>{@link #BAD_RESP_ERR}: the peer's Read Response or Atomic Response did not match the
 *       request.</li>
 *   <li>{@link #FATAL_ERR}, {@link #GENERAL_ERR}: local catastrophic errors, lost connection.</li>
 * </ul>
 * For every error caused by a Terminate the completion's {@link WorkCompletion#vendorErr()} holds
 * the Terminate's (layer, type, code).
 */
public enum WcStatus {
    /** The request completed. */
    SUCCESS,
    /** Local length error: a message longer than the receive buffer, or an SGE list longer than its region. */
    LOC_LEN_ERR,
    /** Local queue-pair operation error: the request cannot be carried out on this queue pair. */
    LOC_QP_OP_ERR,
    /** Local EE context operation error (InfiniBand RD only; not produced here). */
    LOC_EEC_OP_ERR,
    /** Local protection error: an lkey, range or access right the request names is not valid. */
    LOC_PROT_ERR,
    /** Flushed: the queue pair entered ERROR before the request was processed. */
    WR_FLUSH_ERR,
    /** Memory-window bind (or other memory management operation) failed. */
    MW_BIND_ERR,
    /** The peer's Read Response or Atomic Response did not match the request. */
    BAD_RESP_ERR,
    /** Local access error (libibverbs value; not produced here). */
    LOC_ACCESS_ERR,
    /** The peer found the request malformed. */
    REM_INV_REQ_ERR,
    /** The peer sent a Terminate for a protection error this request caused. */
    REM_ACCESS_ERR,
    /** The peer sent a Terminate for a remote operation error this request caused. */
    REM_OP_ERR,
    /** Transport retry counter exceeded (InfiniBand; not produced here, where TCP retransmits). */
    RETRY_EXC_ERR,
    /** Receiver-not-ready retry counter exceeded (InfiniBand only; not produced here). */
    RNR_RETRY_EXC_ERR,
    /** Local RDD violation (InfiniBand RD only; not produced here). */
    LOC_RDD_VIOL_ERR,
    /** Remote invalid RD request (InfiniBand RD only; not produced here). */
    REM_INV_RD_REQ_ERR,
    /** Aborted (libibverbs value; not produced here). */
    REM_ABORT_ERR,
    /** Invalid EE context number (InfiniBand RD only; not produced here). */
    INV_EECN_ERR,
    /** Invalid EE context state (InfiniBand RD only; not produced here). */
    INV_EEC_STATE_ERR,
    /** A local catastrophic error. */
    FATAL_ERR,
    /** Response timeout (libibverbs value; not produced here). */
    RESP_TIMEOUT_ERR,
    /** A general error, such as a lost connection. */
    GENERAL_ERR,
    /** Tag-matching error (libibverbs value; not produced here). */
    TM_ERR,
    /** Tag-matching rendezvous incomplete (libibverbs value; not produced here). */
    TM_RNDV_INCOMPLETE;

    private static final WcStatus[] VALUES = values();

    /** {@return the value of the matching {@code IBV_WC_*} constant} */
    public int ibvValue() {
        return ordinal();
    }

    /** {@return whether this is {@link #SUCCESS}} */
    public boolean isSuccess() {
        return this == SUCCESS;
    }

    /**
     * The status with the given {@code IBV_WC_*} value, or {@code null} if out of range.
     *
     * @param ibvValue an {@code IBV_WC_*} value
     * @return the status, or {@code null}
     */
    public static WcStatus ofIbv(int ibvValue) {
        return ibvValue >= 0 && ibvValue < VALUES.length ? VALUES[ibvValue] : null;
    }

    /** {@return the text libibverbs' {@code ibv_wc_status_str} gives for this status} */
    public String description() {
        return switch (this) {
            case SUCCESS -> "success";
            case LOC_LEN_ERR -> "local length error";
            case LOC_QP_OP_ERR -> "local QP operation error";
            case LOC_EEC_OP_ERR -> "local EE context operation error";
            case LOC_PROT_ERR -> "local protection error";
            case WR_FLUSH_ERR -> "Work Request Flushed Error";
            case MW_BIND_ERR -> "memory management operation error";
            case BAD_RESP_ERR -> "bad response error";
            case LOC_ACCESS_ERR -> "local access error";
            case REM_INV_REQ_ERR -> "remote invalid request error";
            case REM_ACCESS_ERR -> "remote access error";
            case REM_OP_ERR -> "remote operation error";
            case RETRY_EXC_ERR -> "transport retry counter exceeded";
            case RNR_RETRY_EXC_ERR -> "RNR retry counter exceeded";
            case LOC_RDD_VIOL_ERR -> "local RDD violation error";
            case REM_INV_RD_REQ_ERR -> "remote invalid RD request";
            case REM_ABORT_ERR -> "aborted error";
            case INV_EECN_ERR -> "invalid EE context number";
            case INV_EEC_STATE_ERR -> "invalid EE context state";
            case FATAL_ERR -> "fatal error";
            case RESP_TIMEOUT_ERR -> "response timeout error";
            case GENERAL_ERR -> "general error";
            case TM_ERR -> "TM error";
            case TM_RNDV_INCOMPLETE -> "TM software rendezvous";
        };
    }
}
