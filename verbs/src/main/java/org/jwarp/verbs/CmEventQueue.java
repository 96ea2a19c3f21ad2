package org.jwarp.verbs;

import java.time.Duration;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A {@link CmEventHandler} that queues events for an application thread to take, in the style of
 * librdmacm's {@code rdma_get_cm_event}. Offering never blocks the engine thread (the queue is
 * unbounded; connection events are a handful per connection).
 *
 * <p>In {@link DeviceConfig.ThreadingMode#INVOKER} mode nothing produces events unless some
 * thread runs the engine: there, wait with {@link #poll(Duration, RdmaDevice)}, which runs the
 * device's engine while it waits, instead of {@link #poll(long, TimeUnit)}.
 *
 * <p>Thread-safe.
 */
public final class CmEventQueue implements CmEventHandler {

    private final LinkedBlockingQueue<CmEvent> events = new LinkedBlockingQueue<>();

    @Override
    public void onCmEvent(CmEvent event) {
        if (event == null) {
            throw new IllegalArgumentException("null CM event");
        }
        events.add(event);
    }

    /** The next event, or {@code null} if none is queued. */
    public CmEvent poll() {
        return events.poll();
    }

    /** The next event, waiting up to the timeout; {@code null} on timeout. */
    public CmEvent poll(long timeout, TimeUnit unit) throws InterruptedException {
        return events.poll(timeout, unit);
    }

    /** As {@link #poll(long, TimeUnit)}. */
    public CmEvent poll(Duration timeout) throws InterruptedException {
        return events.poll(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    /**
     * The next event, waiting up to the timeout on {@code device}'s engine ({@code null} on
     * timeout): in INVOKER mode the waiting thread runs the device's duty cycle meanwhile
     * ({@link RdmaDevice#invokeUntil}); otherwise as {@link #poll(Duration)}.
     */
    public CmEvent poll(Duration timeout, RdmaDevice device) throws InterruptedException {
        if (device.config().threadingMode() != DeviceConfig.ThreadingMode.INVOKER) {
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
     */
    public <T extends CmEvent> T expect(Class<T> type, Duration timeout) throws InterruptedException {
        CmEvent e = poll(timeout);
        if (e == null) {
            return null;
        }
        if (!type.isInstance(e)) {
            throw new IllegalStateException("expected " + type.getSimpleName() + " but got " + e);
        }
        return type.cast(e);
    }

    /** Number of queued events. */
    public int size() {
        return events.size();
    }
}
