package org.jwarp.verbs;

import java.util.Optional;

/**
 * A reliable-connected queue pair ({@code ibv_qp} of type RC) over one iWARP connection (one TCP
 * stream carrying MPA FPDUs).
 *
 * <h2>Life cycle</h2>
 * Created in {@link QpState#INIT}, ready for {@code connect} or {@code accept} (as
 * {@code rdma_create_qp} leaves a QP); receives may be posted at once. The queue pair stays in INIT
 * while the connection is set up; the connection manager moves it to RTR when the MPA exchange is
 * done and to RTS when the connection is established ({@link CmEvent.Established}); a Terminate,
 * a lost connection or a disconnect move it to ERROR, which flushes (see {@link QpState} for the
 * transition table). A queue pair carries one connection: a second {@code connect} or
 * {@code accept} fails.
 *
 * <h2>Posting</h2>
 * {@link #postSend(SendWr[], int)} posts a list of work requests with one doorbell (seed 003's
 * "multiple work requests per post"); the single-request form is a list of one. Posts return a
 * {@link PostStatus} code instead of throwing, read the requests only during the call (the
 * objects may be refilled right after), allocate nothing and take no lock: the request is copied
 * into a ring slot and the engine is told with a doorbell (a volatile write, and an unpark only if
 * the engine thread is parked).
 *
 * <p>Ordering (RFC 5040 §5.5): requests execute and complete in posting order on each queue.
 * An RDMA Read does not order against later Sends or Writes at the peer: set
 * {@link SendFlags#FENCE} on the later request when that matters.
 *
 * <h2>Thread-safety</h2>
 * {@code postSend} from one thread at a time, {@code postRecv} from one thread at a time (it may be
 * a different one). {@code modify}, {@code close} and the getters from any thread. In
 * a provider whose engine runs on its callers' threads ({@link RdmaDevice#invoke()}) a post may
 * also run the engine's duty cycle on the posting thread (never blocking).
 */
public interface QueuePair extends AutoCloseable {

    /** {@return the device} */
    RdmaDevice device();

    /** {@return the protection domain of the queue pair's memory accesses} */
    ProtectionDomain pd();

    /** {@return the queue pair number, unique within the device ({@link WorkCompletion#qpNum()})} */
    int qpNum();

    /**
     * The attributes the queue pair was created with, with the capacities the provider allocated:
     * {@code maxSendWr} and {@code maxRecvWr} may be above what was asked (a provider rounds queue
     * sizes up, as {@code ibv_create_qp} writes the actual {@code ibv_qp_cap} back).
     *
     * @return the attributes
     */
    QpInitAttr initAttr();

    /** {@return the current state (a volatile read; may change right after)} */
    QpState state();

    /**
     * Moves the queue pair to {@code target} ({@code ibv_modify_qp} with {@code IBV_QP_STATE}) and
     * returns once the provider has carried it out. Applications use ERROR (to disconnect and flush
     * every outstanding request with {@link WcStatus#WR_FLUSH_ERR}), and RESET then INIT to use the
     * queue pair for a new connection (RESET drops the connection and discards queued work without
     * completions). RTR and RTS are reached only through the connection manager. A connection setup
     * the queue pair was in ends with one {@link CmEvent.ConnectError} of kind
     * {@link CmEvent.ConnectError.Kind#LOCAL}; an established connection with one
     * {@link CmEvent.Disconnected} ({@link CmEvent.Disconnected.Cause#LOCAL}).
     *
     * @throws IllegalStateException if {@link QpState#canTransitionTo} forbids it, or RTR/RTS is
     *                               asked for
     * @param target the state to move to
     */
    void modify(QpState target);

    /** {@return what the connection negotiated; empty until it is established and after a reset} */
    Optional<QpAttr> connectionAttr();

    /**
     * Posts {@code wrs[0..count)} to the send queue in one doorbell.
     *
     * @return {@link PostStatus#OK}, or an encoded rejection naming the first request not posted
     * @throws IndexOutOfBoundsException if {@code count} exceeds {@code wrs.length} or is negative (a bug)
     * @param wrs   the requests
     * @param count how many of {@code wrs} to post, from index 0
     */
    int postSend(SendWr[] wrs, int count);

    /**
     * Posts one send work request (a list of one).
     *
     * @param wr the request
     * @return {@link PostStatus#OK}, or an encoded rejection
     */
    int postSend(SendWr wr);

    /**
     * Posts {@code wrs[0..count)} to the receive queue in one doorbell.
     *
     * @return {@link PostStatus#OK}, or an encoded rejection naming the first request not posted
     * @throws IndexOutOfBoundsException if {@code count} exceeds {@code wrs.length} or is negative (a bug)
     * @param wrs   the requests
     * @param count how many of {@code wrs} to post, from index 0
     */
    int postRecv(RecvWr[] wrs, int count);

    /**
     * Posts one receive work request.
     *
     * @param wr the request
     * @return {@link PostStatus#OK}, or an encoded rejection
     */
    int postRecv(RecvWr wr);

    /**
     * This queue pair's counters ({@link CounterNames#STANDARD}; FPDUs and bytes of its stream,
     * doorbells it rang, Terminates it sent and received, CRC errors on its stream).
     *
     * @return the counters
     */
    Counters counters();

    /**
     * Destroys the queue pair ({@code ibv_destroy_qp}): disconnects abruptly if connected (the peer
     * sees the TCP connection close), discards queued work without completions, frees its number.
     * Idempotent.
     */
    @Override
    void close();
}
