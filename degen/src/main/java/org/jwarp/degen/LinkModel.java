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
 * packet, as a real link would. Due times never decrease: jitter does not reorder packets (a
 * reordering WAN is a different experiment, and TCP would read it as loss).
 *
 * <p>Pure and single-threaded: time comes in as an argument, randomness from a seeded generator.
 */
public final class LinkModel {

    public static final int ACCEPT = 0;
    public static final int DROP_LOSS = 1;
    public static final int DROP_QUEUE = 2;

    private final LinkParams params;
    private final SplittableRandom rng;
    private boolean busy;
    private long linkFree;
    private boolean anyDue;
    private long lastDue;
    private long due;

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
        return ACCEPT;
    }

    /** Departure time of the packet last accepted by {@link #admit}. */
    public long due() {
        return due;
    }
}
