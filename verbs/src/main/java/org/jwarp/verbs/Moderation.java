package org.jwarp.verbs;

/**
 * Interrupt moderation of a {@link CompletionChannel} (seed 004: packets per interrupt; seed 001:
 * the engine signals the host): once armed, the channel wakes its waiter after {@code count}
 * completion events, or {@code periodMicros} microseconds after the first event, whichever comes
 * first. A solicited event ({@link SendFlags#SOLICITED}) on a CQ armed for solicited-only counts
 * as an event; unsolicited completions do not.
 *
 * @param count        events per wake-up, at least 1
 * @param periodMicros the longest a first event waits for company before the wake-up, in µs;
 *                     0 means no delay (wake at once when {@code count} is 1)
 */
public record Moderation(int count, long periodMicros) {

    /** No moderation: wake on every event ({@code count = 1, period = 0}). */
    public static final Moderation NONE = new Moderation(1, 0);

    /** Largest period: one second. */
    public static final long MAX_PERIOD_MICROS = 1_000_000;

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

    /** Wake after {@code count} events or {@code periodMicros} µs. */
    public static Moderation of(int count, long periodMicros) {
        return new Moderation(count, periodMicros);
    }

    /** True if this is {@link #NONE}'s behaviour (every event wakes at once). */
    public boolean isNone() {
        return count == 1;
    }
}
