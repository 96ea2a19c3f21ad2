package org.jwarp.verbs;

/**
 * Interrupt moderation of a {@link CompletionChannel} (seed 004: packets per interrupt; seed 001:
 * the engine interrupts the host; OFED's {@code ibv_modify_cq} {@code cq_count}/{@code cq_period}).
 *
 * <p>Once a CQ is armed ({@link CompletionQueue#requestNotify}), the provider raises its event
 * when {@code count} completions that match the arming have arrived on that CQ since it was
 * armed, or {@code periodMicros} after the first of them, whichever comes first. For a CQ armed
 * solicited-only, the matching completions are solicited receives and error completions; the
 * others are queued but do not count. Every raised event wakes the channel's waiter (one wake-up,
 * counted in {@code wakeups}). With {@link #NONE} the first matching completion raises the event
 * at once: the lowest latency and the most wake-ups.
 *
 * @param count        matching completions per event, at least 1
 * @param periodMicros the longest the first matching completion waits for company, in µs (0 to
 *                     1 s); 0 means no wait and is only allowed with {@code count} 1
 */
public record Moderation(int count, long periodMicros) {

    /** No moderation: wake on every event ({@code count = 1, period = 0}). */
    public static final Moderation NONE = new Moderation(1, 0);

    /** Largest period: one second. */
    public static final long MAX_PERIOD_MICROS = 1_000_000;

    /**
     * Validates the parameters.
     *
     * @throws IllegalArgumentException if {@code count} is below 1, the period is outside
     *                                  0..{@value #MAX_PERIOD_MICROS} µs, or a count above 1 has no period
     */
    public Moderation {
        if (count < 1) {
            throw new IllegalArgumentException("moderation count must be >= 1: " + count);
        }
        if (periodMicros < 0 || periodMicros > MAX_PERIOD_MICROS) {
            throw new IllegalArgumentException("moderation period must be in 0.." + MAX_PERIOD_MICROS + " µs: "
                    + periodMicros);
        }
        if (count > 1 && periodMicros == 0) {
            throw new IllegalArgumentException("moderation count " + count + " needs a period > 0,"
                    + " or a lone completion would never wake the waiter");
        }
    }

    /**
     * Wake after {@code count} events or {@code periodMicros} µs.
     *
     * @param count        events per wake-up
     * @param periodMicros the longest delay of a wake-up, in µs
     * @return the moderation
     */
    public static Moderation of(int count, long periodMicros) {
        return new Moderation(count, periodMicros);
    }

    /** {@return whether this behaves as {@link #NONE} (every event wakes at once)} */
    public boolean isNone() {
        return count == 1;
    }
}
