package org.jwarp.verbs;

/**
 * A completion queue ({@code ibv_cq}): the provider writes {@link WorkCompletion}s of the queue
 * pairs attached to it; the application polls them.
 *
 * <p>Two ways to wait (seed 003): <b>busy polling</b>, calling {@link #poll} in a loop; and
 * <b>event notification</b>, attaching the CQ to a {@link CompletionChannel}, arming it with
 * {@link #requestNotify(boolean)} and blocking in {@link CompletionChannel#await}. The race-free
 * loop, as with {@code ibv_req_notify_cq}:
 * <pre>{@code
 * WorkCompletion[] wcs = ...;              // allocated once
 * for (;;) {
 *     int n = cq.poll(wcs);
 *     if (n > 0) { handle(wcs, n); continue; }
 *     cq.requestNotify(false);            // arm
 *     n = cq.poll(wcs);                   // a completion may have arrived before arming
 *     if (n > 0) { handle(wcs, n); continue; }
 *     channel.await(timeout, unit);       // wakes on the next completion (moderated)
 * }
 * }</pre>
 *
 * <p>Overrun: the queue holds {@link #depth()} completions. The provider sizes send and receive
 * queues so that a CQ with enough depth for its queue pairs cannot overrun; if it does anyway, the
 * affected queue pairs go to {@link QpState#ERROR} (OFED's CQ-error asynchronous event).
 *
 * <p>Thread-safety: {@link #poll} and {@link #requestNotify} from one thread at a time (the
 * consumer). Where the engine runs on its callers' threads ({@link RdmaDevice#invoke()}),
 * {@code poll} also runs the engine's duty cycle. Allocation-free and lock-free.
 */
public interface CompletionQueue extends AutoCloseable {

    /** {@return the device this CQ belongs to} */
    RdmaDevice device();

    /** {@return the provider-assigned number, unique within the device} */
    int handle();

    /**
     * Number of completions the queue holds: at least the depth asked for at creation, possibly more
     * (a provider rounds it up, as {@code ibv_create_cq} reports the actual {@code cqe}).
     *
     * @return the capacity
     */
    int depth();

    /** {@return the channel this CQ notifies, or {@code null} if created without one} */
    CompletionChannel channel();

    /**
     * Moves up to {@code max} completions, oldest first, into {@code wcs[0..n)} and returns
     * {@code n} (0 if none). Never blocks.
     *
     * @throws IndexOutOfBoundsException if {@code max} exceeds {@code wcs.length} or is negative (a bug)
     * @param wcs the completions to overwrite
     * @param max the most to move
     * @return the number moved
     */
    int poll(WorkCompletion[] wcs, int max);

    /**
     * {@code poll(wcs, wcs.length)}.
     *
     * @param wcs the completions to overwrite
     * @return the number moved
     */
    default int poll(WorkCompletion[] wcs) {
        return poll(wcs, wcs.length);
    }

    /**
     * Arms the CQ for one notification on its channel ({@code ibv_req_notify_cq}): the next
     * completion (if {@code solicitedOnly} is false), or the next receive completion of a Send or
     * Immediate Data message carrying the solicited-event bit (if true), or an error completion,
     * raises an event on the channel, after as many matching completions or as long a delay as the
     * channel's {@link Moderation} says. One-shot: re-arm after each event. Arming an already armed CQ widens it to all completions if
     * {@code solicitedOnly} is false, as in OFED.
     *
     * @throws IllegalStateException if the CQ has no channel
     * @param solicitedOnly whether only solicited (and error) completions raise the event
     */
    void requestNotify(boolean solicitedOnly);

    /**
     * Destroys the CQ ({@code ibv_destroy_cq}).
     *
     * @throws IllegalStateException if queue pairs still use it (OFED's EBUSY)
     */
    @Override
    void close();
}
