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
    SUCCESS,
    LOC_LEN_ERR,
    LOC_QP_OP_ERR,
    LOC_EEC_OP_ERR,
    LOC_PROT_ERR,
    WR_FLUSH_ERR,
    MW_BIND_ERR,
    BAD_RESP_ERR,
    LOC_ACCESS_ERR,
    REM_INV_REQ_ERR,
    REM_ACCESS_ERR,
    REM_OP_ERR,
    RETRY_EXC_ERR,
    RNR_RETRY_EXC_ERR,
    LOC_RDD_VIOL_ERR,
    REM_INV_RD_REQ_ERR,
    REM_ABORT_ERR,
    INV_EECN_ERR,
    INV_EEC_STATE_ERR,
    FATAL_ERR,
    RESP_TIMEOUT_ERR,
    GENERAL_ERR,
    TM_ERR,
    TM_RNDV_INCOMPLETE;

    private static final WcStatus[] VALUES = values();

    /** The value of the matching {@code IBV_WC_*} constant. */
    public int ibvValue() {
        return ordinal();
    }

    /** True for {@link #SUCCESS}. */
    public boolean isSuccess() {
        return this == SUCCESS;
    }

    /** The status with the given {@code IBV_WC_*} value, or {@code null} if out of range. */
    public static WcStatus ofIbv(int ibvValue) {
        return ibvValue >= 0 && ibvValue < VALUES.length ? VALUES[ibvValue] : null;
    }

    /** The text libibverbs' {@code ibv_wc_status_str} gives for this status. */
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
