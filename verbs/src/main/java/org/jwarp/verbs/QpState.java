package org.jwarp.verbs;

/**
 * Queue-pair states of the OFED state machine, with the numeric values of libibverbs'
 * {@code enum ibv_qp_state} (SQD = 4 and SQE = 5 are not used by this RC iWARP API).
 *
 * <p>Legal transitions ({@link #canTransitionTo}), as the kernel's {@code ib_modify_qp_is_ok}
 * table allows them for these five states:
 * <pre>
 *   from \ to   RESET  INIT  RTR  RTS  ERROR
 *   RESET         x     x                x
 *   INIT          x     x     x          x
 *   RTR           x                x     x
 *   RTS           x                x     x
 *   ERROR         x                      x
 * </pre>
 * Any state may go to RESET (which discards all queued work without completions) or to ERROR
 * (which flushes: every outstanding request completes with {@link WcStatus#WR_FLUSH_ERR}).
 *
 * <p>On iWARP the connection manager drives INIT→RTR→RTS: {@code connect} and {@code accept} take
 * a queue pair in {@link #INIT} and the provider moves it to RTS when the connection is
 * established (after the MPA exchange and, in peer-to-peer mode, the RTR of RFC 6581). A
 * Terminate, a lost connection or a disconnect move it to ERROR.
 *
 * <p>What each state allows: receives may be posted from INIT on; sends only in RTS. In ERROR
 * both may be posted and complete immediately with {@link WcStatus#WR_FLUSH_ERR}.
 */
public enum QpState {
    /** {@code IBV_QPS_RESET}: no connection, no work; the state a reset leaves the queue pair in. */
    RESET(0),
    /** {@code IBV_QPS_INIT}: created, receives may be posted; ready to connect or accept. */
    INIT(1),
    /** {@code IBV_QPS_RTR}: ready to receive; the connection manager passes through it to RTS. */
    RTR(2),
    /** {@code IBV_QPS_RTS}: ready to send: the connection is established. */
    RTS(3),
    /** {@code IBV_QPS_ERR}: the connection ended; every posted request completes with WR_FLUSH_ERR. */
    ERROR(6);

    private final int ibvValue;

    QpState(int ibvValue) {
        this.ibvValue = ibvValue;
    }

    /** {@return the value of the matching {@code IBV_QPS_*} constant} */
    public int ibvValue() {
        return ibvValue;
    }

    /**
     * True if {@code modify(to)} is legal from this state (table in the class comment).
     *
     * @param to the target state
     * @return whether {@code modify(to)} is legal from this state (table in the class comment)
     */
    public boolean canTransitionTo(QpState to) {
        if (to == RESET || to == ERROR) {
            return true;
        }
        return switch (this) {
            case RESET -> to == INIT;
            case INIT -> to == INIT || to == RTR;
            case RTR -> to == RTS;
            case RTS -> to == RTS;
            case ERROR -> false;
        };
    }

    /**
     * Checks a transition for a provider's {@code modify}.
     *
     * @return {@code to}
     * @throws IllegalStateException naming both states and the legal targets
     * @param to the target state
     */
    public QpState checkTransitionTo(QpState to) {
        if (!canTransitionTo(to)) {
            StringBuilder legal = new StringBuilder();
            for (QpState s : values()) {
                if (canTransitionTo(s)) {
                    legal.append(legal.isEmpty() ? "" : ", ").append(s);
                }
            }
            throw new IllegalStateException("illegal queue pair transition " + this + " -> " + to
                    + " (legal from " + this + ": " + legal + ")");
        }
        return to;
    }

    /** {@return whether receive work requests may be posted (INIT, RTR, RTS; in ERROR they are flushed)} */
    public boolean acceptsRecv() {
        return this != RESET;
    }

    /** {@return whether send work requests may be posted (RTS; in ERROR they are flushed)} */
    public boolean acceptsSend() {
        return this == RTS || this == ERROR;
    }
}
