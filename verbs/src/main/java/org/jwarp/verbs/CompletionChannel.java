package org.jwarp.verbs;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A completion channel ({@code ibv_comp_channel}): the "event notification" mode of seed 003 and
 * the interrupt of seed 001's offload engine. CQs created with this channel raise an event when
 * armed ({@link CompletionQueue#requestNotify}) and completions arrive, as the channel's
 * {@link Moderation} says (after N completions or T µs); each event wakes the waiter.
 *
 * <p>An event is consumed by the {@code await} call that returns it (libibverbs'
 * {@code ibv_get_cq_event} followed by {@code ibv_ack_cq_events}); the CQ must then be re-armed.
 * Each wake-up of a blocked waiter counts in the device's {@code wakeups} counter.
 *
 * <p>Thread-safety: one thread at a time waits. Where the engine runs on its callers' threads
 * ({@link RdmaDevice#needsInvoke()}) the waiting thread runs the engine's duty cycle between idle steps instead of blocking outright.
 */
public interface CompletionChannel extends AutoCloseable {

    /** {@return the moderation this channel was created with} */
    Moderation moderation();

    /**
     * Waits until an armed CQ of this channel has an event, or the timeout passes.
     *
     * @return the CQ whose event was consumed, or {@code null} on timeout. If several CQs have
     *         events, one is returned per call, oldest event first.
     * @throws InterruptedException  if the thread is interrupted while waiting
     * @throws IllegalStateException if the channel is closed
     * @param timeout the longest wait
     * @param unit    the unit of {@code timeout}
     */
    CompletionQueue await(long timeout, TimeUnit unit) throws InterruptedException;

    /**
     * As {@link #await(long, TimeUnit)}.
     *
     * @param timeout the longest wait
     * @return the CQ whose event was consumed, or {@code null} on timeout
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    default CompletionQueue await(Duration timeout) throws InterruptedException {
        return await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /**
     * Consumes a pending event without waiting; {@code null} if there is none.
     *
     * @return the CQ whose event was consumed, or {@code null}
     */
    CompletionQueue tryAwait();

    /**
     * Destroys the channel; a thread blocked in {@code await} returns with
     * {@link IllegalStateException}.
     *
     * @throws IllegalStateException if CQs still use it (OFED's EBUSY)
     */
    @Override
    void close();
}
