package org.jwarp.engine.toe;

/**
 * When the engine raises a queue pair's emulated interrupt (seed 001 §III), moderated as a NIC
 * moderates its receive interrupts (frames and microseconds): a duty cycle that posted only full
 * anonymous buffers does not wake the host threads sleeping on the pair; they are woken once half
 * a socket's share of buffers waits, or the fill timeout ({@link ToeConfig#fillTimeoutNanos()})
 * after the first of them, whichever comes first. A streaming reader is then woken once per many
 * buffers, not once per scattered read, and a byte waits for a sleeping reader at most twice the
 * fill timeout. Any other event (a partly filled buffer, the end of the stream, a connect or
 * accept, a send notification, a failure, a close) raises the interrupt at the end of its cycle,
 * with everything held before it.
 *
 * <p>Only the wake-up waits: every event is published at once, and a host thread that is awake,
 * or about to sleep (it looks at the events after it registered as a sleeper), takes it without
 * waiting. Engine thread only.
 */
final class InterruptModeration {

    private final int fullBufferBytes;
    private final int heldLimit;
    private final long delayNanos;
    /** Events posted since the last interrupt. */
    private boolean posted;
    /** One of them is not a full buffer: the interrupt is raised at the end of this cycle. */
    private boolean urgent;
    /** Full buffers posted since the last interrupt. */
    private int held;
    /** When the cycle that posted the first of them started; valid while {@link #timing}. */
    private long heldSince;
    private boolean timing;

    InterruptModeration(ToeConfig config) {
        this.fullBufferBytes = config.receiveBufferBytes();
        this.heldLimit = Math.max(1, config.buffersPerSocket() / 2);
        this.delayNanos = config.fillTimeoutNanos();
    }

    /** An event was published on the pair's event queue. */
    void posted(Event.Kind kind, int length) {
        posted = true;
        if (kind == Event.Kind.RECEIVED && length == fullBufferBytes) {
            held++;
        } else {
            urgent = true;
        }
    }

    /**
     * At the end of a duty cycle that started at {@code now}: whether the interrupt is raised now
     * (what was held is then covered by it).
     */
    boolean due(long now) {
        if (!posted) {
            return false;
        }
        if (!timing) {
            heldSince = now;                        // the first cycle that held one
            timing = true;
        }
        if (urgent || held >= heldLimit || now - heldSince >= delayNanos) {
            posted = false;
            urgent = false;
            timing = false;
            held = 0;
            return true;
        }
        return false;
    }

    /** When a held interrupt must be raised without further events, or {@link Long#MAX_VALUE}. */
    long deadline() {
        return timing ? heldSince + delayNanos : Long.MAX_VALUE;
    }
}
