package org.jwarp.verbs;

import java.util.concurrent.TimeUnit;

/**
 * A shared receive queue: OFED's {@code ibv_srq}. Receives posted here are consumed by the Sends
 * (and RFC 7306 Immediate Data messages) arriving on any queue pair created with it
 * ({@link QpInitAttr.Builder#srq}), one receive per message, the oldest first, whichever queue pair
 * the message came on. Each completion goes to the receive CQ of the queue pair the message came
 * on and names that queue pair ({@link WorkCompletion#qpNum()}).
 *
 * <p>A Send that finds the queue empty ends its own connection with RFC 5041 §7.2's Terminate
 * (DDP untagged buffer error, "no buffer available"), as on a queue pair's own receive queue:
 * iWARP has no receiver-not-ready retry. The other queue pairs on the queue are untouched. A
 * queue pair that ends flushes only the receive it had taken for a message under way; the
 * receives still in the shared queue stay for the others.
 *
 * <p>Threads: {@link #postRecv} from any number of threads at once; the engine threads of every
 * queue pair on the queue take receives concurrently.
 */
public interface SharedReceiveQueue extends AutoCloseable {

    /** {@return the protection domain of the receives' memory} */
    ProtectionDomain pd();

    /** {@return the receives the queue holds at most (the requested depth rounded up to a power of two)} */
    int maxWr();

    /** {@return the SGEs per receive} */
    int maxSge();

    /**
     * Posts one receive ({@code ibv_post_srq_recv}); the request is copied.
     *
     * @return {@link PostStatus#OK}, or {@link PostStatus#QUEUE_FULL}, {@link PostStatus#TOO_MANY_SGE},
     *         {@link PostStatus#QP_DESTROYED} (the queue is closed)
     * @param wr the request
     */
    int postRecv(RecvWr wr);

    /**
     * Posts {@code count} receives in order; stops at the first rejected (see {@link PostStatus#badIndex}).
     *
     * @param wrs   the requests
     * @param count how many of {@code wrs} to post, from index 0
     * @return {@link PostStatus#OK}, or an encoded rejection naming the first request not posted
     */
    int postRecv(RecvWr[] wrs, int count);

    /** {@return the receives posted and not yet taken by a message (a moment's view)} */
    int size();

    /**
     * Arms the limit ({@code ibv_modify_srq} with {@code IBV_SRQ_LIMIT}): once a message takes a
     * receive and fewer than {@code limit} remain, one limit event fires and the limit disarms
     * ({@link #limit()} becomes 0), as OFED's {@code IBV_EVENT_SRQ_LIMIT_REACHED} does. 0 disarms.
     *
     * @throws IllegalArgumentException if {@code limit} is negative or above {@link #maxWr()}
     * @param limit the low-water mark, or 0
     */
    void armLimit(int limit);

    /** {@return the armed limit, or 0} */
    int limit();

    /**
     * Waits for a limit event (the asynchronous event {@code IBV_EVENT_SRQ_LIMIT_REACHED}) and
     * consumes it.
     *
     * @return true if an event came (or had come and was not yet consumed), false on timeout
     * @param timeout the longest wait
     * @param unit    the unit of {@code timeout}
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    boolean awaitLimit(long timeout, TimeUnit unit) throws InterruptedException;

    /** {@return the limit events fired since the queue was made} */
    long limitEvents();

    /**
     * Destroys the queue ({@code ibv_destroy_srq}). Receives still posted are dropped without
     * completions, as OFED does.
     *
     * @throws IllegalStateException while a queue pair created with it is open (OFED's EBUSY)
     */
    @Override
    void close();
}
