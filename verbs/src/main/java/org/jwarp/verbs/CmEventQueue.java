package org.jwarp.verbs;

import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A {@link CmEventHandler} that queues events for an application thread to take, in the style of
 * librdmacm's {@code rdma_get_cm_event}. Offering never blocks the engine thread (the queue is
 * unbounded; connection events are a handful per connection).
 *
 * <p>Where a device's engine runs on its callers' threads ({@link RdmaDevice#needsInvoke()}),
 * nothing produces events unless some thread runs the engine, and where a standby engine thread
 * takes over from the callers (the jwarp engine's hybrid mode) it does so only a moment after the
 * application stops calling in: in both, wait with
 * {@link #poll(Duration, RdmaDevice)} (or {@link #expect(Class, Duration, RdmaDevice)}), which runs
 * the engine on the waiting thread ({@link RdmaDevice#waitsInEngine()}) or hands it over at once,
 * instead of {@link #poll(long, TimeUnit)}.
 *
 * <p>Thread-safe.
 */
public final class CmEventQueue implements CmEventHandler {

    private final LinkedBlockingQueue<CmEvent> events = new LinkedBlockingQueue<>();

    /** An empty queue. */
    public CmEventQueue() {
    }

    @Override
    public void onCmEvent(CmEvent event) {
        if (event == null) {
            throw new IllegalArgumentException("null CM event");
        }
        events.add(event);
    }

    /** {@return the next event, or {@code null} if none is queued} */
    public CmEvent poll() {
        return events.poll();
    }

    /**
     * The next event, waiting up to the timeout; {@code null} on timeout.
     *
     * @param timeout the longest wait
     * @param unit    the unit of {@code timeout}
     * @return the event, or {@code null}
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    public CmEvent poll(long timeout, TimeUnit unit) throws InterruptedException {
        return events.poll(timeout, unit);
    }

    /**
     * As {@link #poll(long, TimeUnit)}.
     *
     * @param timeout the longest wait
     * @return the event, or {@code null}
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    public CmEvent poll(Duration timeout) throws InterruptedException {
        return events.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /**
     * The next event, waiting up to the timeout on {@code device}'s engine ({@code null} on
     * timeout): if the device {@linkplain RdmaDevice#waitsInEngine() has waits in its engine}, the
     * waiting thread runs the device's duty cycle meanwhile ({@link RdmaDevice#invokeUntil}) and
     * the bytes that bring the event wake it; otherwise it hands the engine over at once, if it
     * held it, and sleeps in the queue.
     *
     * @param timeout the longest wait
     * @param device  the device whose engine produces the events
     * @return the event, or {@code null}
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    public CmEvent poll(Duration timeout, RdmaDevice device) throws InterruptedException {
        if (!device.waitsInEngine()) {
            // hand the engine over (a wait of no time), then sleep in the queue: an event wakes
            // this thread at once, and a long wait costs no wake-ups
            device.invokeUntil(this::hasEvent, 0, TimeUnit.NANOSECONDS);
            return poll(timeout);
        }
        long nanos;
        try {
            nanos = timeout.toNanos();
        } catch (ArithmeticException tooLong) {
            nanos = Long.MAX_VALUE; // centuries: as good as forever
        }
        device.invokeUntil(this::hasEvent, nanos, TimeUnit.NANOSECONDS);
        return events.poll();
    }

    private boolean hasEvent() {
        return !events.isEmpty();
    }

    /**
     * The next event, which must be of {@code type}; {@code null} on timeout.
     *
     * @throws IllegalStateException if the next event is of another type (it is consumed; the
     *                               message shows it)
     * @param <T>     the event type
     * @param type    the event type
     * @param timeout the longest wait
     * @return the event, or {@code null}
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    public <T extends CmEvent> T expect(Class<T> type, Duration timeout) throws InterruptedException {
        return expected(type, poll(timeout));
    }

    /**
     * As {@link #expect(Class, Duration)}, waiting on {@code device}'s engine as
     * {@link #poll(Duration, RdmaDevice)} does: the form that works in every threading mode.
     *
     * @param <T>     the event type
     * @param type    the event type
     * @param timeout the longest wait
     * @param device  the device whose engine produces the events
     * @return the event, or {@code null}
     * @throws InterruptedException if the thread is interrupted while waiting
     */
    public <T extends CmEvent> T expect(Class<T> type, Duration timeout, RdmaDevice device)
            throws InterruptedException {
        return expected(type, poll(timeout, device));
    }

    private static <T extends CmEvent> T expected(Class<T> type, CmEvent e) {
        if (e == null) {
            return null;
        }
        if (!type.isInstance(e)) {
            throw new IllegalStateException("expected " + type.getSimpleName() + " but got " + e);
        }
        return type.cast(e);
    }

    /** {@return the number of queued events} */
    public int size() {
        return events.size();
    }
}
