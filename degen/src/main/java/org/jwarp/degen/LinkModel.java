package org.jwarp.degen;

import java.util.SplittableRandom;

/**
 * The timing model of one direction of the emulated link: given when a packet arrived and how big
 * it is, decides whether it is dropped and when it is due to leave.
 *
 * <p>A packet first waits for the serialiser (a link of the configured rate that is busy until
 * {@code linkFree}), is serialised for {@code (bytes + overhead) * 8 / rate}, then propagates for
 * {@code delay + jitter}:
 * <pre>
 *   start = max(arrival, linkFree);  linkFree = start + serialisation;  due = linkFree + delay + jitter
 * </pre>
 * The delay is added to each packet's own arrival time, so a burst of N back-to-back packets leaves
 * as the same burst shifted by the delay, never spread by N × delay (the "no cascading" property of
 * the paper's degen). Only the rate limit spreads a burst, by exactly one serialisation time per
 * packet, as a real link would. Due times never decrease: jitter does not reorder packets.
 * Reordering and duplication are drawn separately, per packet, and carried out by the
 * {@link DelayLine} when the packet leaves ({@link #flags()}): a packet marked {@link #REORDER}
 * is held back until the packet behind it has left (at most {@link #REORDER_HOLD_NANOS}), one
 * marked {@link #DUPLICATE} leaves twice.
 *
 * <p>Pure and single-threaded: time comes in as an argument, randomness from a seeded generator.
 */
public final class LinkModel {

    public static final int ACCEPT = 0;
    public static final int DROP_LOSS = 1;
    public static final int DROP_QUEUE = 2;

    /** Flag of an accepted packet: it leaves twice. */
    public static final int DUPLICATE = 1;
    /** Flag of an accepted packet: it leaves after the packet behind it. */
    public static final int REORDER = 2;
    /**
     * Longest a reordered packet waits for a packet to overtake it: long enough for the next
     * packet of a stream, short enough that a lone packet (a ping-pong's) is merely late.
     */
    public static final long REORDER_HOLD_NANOS = 1_000_000L;

    private final LinkParams params;
    private final SplittableRandom rng;
    private boolean busy;
    private long linkFree;
    private boolean anyDue;
    private long lastDue;
    private long due;
    private int flags;

    public LinkModel(LinkParams params, long seed) {
        this.params = params;
        this.rng = new SplittableRandom(seed);
    }

    public LinkParams params() {
        return params;
    }

    /**
     * Offers a packet of {@code bytes} (IP length) that arrived at {@code arrivalNanos}.
     *
     * @return {@link #ACCEPT} (then {@link #due()} is its departure time), {@link #DROP_LOSS} or
     *         {@link #DROP_QUEUE}
     */
    public int admit(long arrivalNanos, int bytes) {
        // Loss first, as netem does: a lost packet never occupies the queue or the serialiser.
        if (params.loss() > 0.0 && rng.nextDouble() < params.loss()) {
            return DROP_LOSS;
        }
        // One packet is either held back or duplicated: a duplicate of a held packet would
        // overtake nothing that the original had not.
        int f = 0;
        if (params.reorder() > 0.0 && rng.nextDouble() < params.reorder()) {
            f = REORDER;
        } else if (params.duplicate() > 0.0 && rng.nextDouble() < params.duplicate()) {
            f = DUPLICATE;
        }
        long departLink = arrivalNanos;
        if (params.rateBitsPerSecond() > 0) {
            long start = arrivalNanos;
            if (busy && linkFree - arrivalNanos > 0) {
                long backlogNanos = linkFree - arrivalNanos;
                // Bytes still waiting for the serialiser, in the fluid approximation of a FIFO link.
                // (double: nanos × bits/s overflows a long for a large queue on a fast link).
                double backlogBytes = (double) backlogNanos * params.rateBitsPerSecond() / 8e9;
                if (backlogBytes + bytes > params.queueLimitBytes()) {
                    return DROP_QUEUE;
                }
                start = linkFree;
            }
            linkFree = start + params.serialisationNanos(bytes);
            busy = true;
            departLink = linkFree;
        }
        long propagation = params.delayNanos();
        if (params.jitterNanos() > 0) {
            propagation = Math.max(0, propagation + params.jitter().sample(rng, params.jitterNanos()));
        }
        long d = departLink + propagation;
        if (anyDue && d - lastDue < 0) {
            d = lastDue;
        }
        anyDue = true;
        lastDue = d;
        due = d;
        flags = f;
        return ACCEPT;
    }

    /** Departure time of the packet last accepted by {@link #admit}. */
    public long due() {
        return due;
    }

    /** {@link #REORDER}, {@link #DUPLICATE} or 0 for the packet last accepted by {@link #admit}. */
    public int flags() {
        return flags;
    }
}
