package org.jwarp.degen;

import java.util.Locale;

/**
 * What one direction of the emulated WAN link does to packets.
 *
 * @param delayNanos     one-way propagation delay added after serialisation
 * @param jitterNanos    jitter scale J (see {@link JitterDistribution}); 0 for none
 * @param jitter         how jitter is drawn
 * @param rateBitsPerSecond link speed; 0 means no rate limit (no serialisation time)
 * @param overheadBytes  bytes the link adds to every IP packet when computing serialisation time:
 *                       38 for Ethernet (preamble+SFD 8, header 14, FCS 4, inter-frame gap 12), so
 *                       that "1 Gb/s" carries what a Gigabit Ethernet link carries
 * @param loss           probability that a packet is dropped on arrival (Bernoulli, seeded)
 * @param queueLimitBytes bytes that may wait for the serialiser before tail drop (only with a rate)
 * @param reorder        probability that a packet is held back and leaves after the packet behind it
 *                       (or {@link LinkModel#REORDER_HOLD_NANOS} after its due time if none follows)
 * @param duplicate      probability that a packet leaves twice, the copy right behind the original
 */
public record LinkParams(long delayNanos, long jitterNanos, JitterDistribution jitter, long rateBitsPerSecond,
                         int overheadBytes, double loss, long queueLimitBytes, double reorder, double duplicate) {

    public static final int ETHERNET_OVERHEAD = 38;
    public static final long DEFAULT_QUEUE_LIMIT = 1L << 20;
    /** The keys of {@link #withOverrides}. */
    public static final String KEYS = "delay, jitter, dist, rate, overhead, loss, queue, reorder, duplicate";

    public LinkParams {
        if (delayNanos < 0 || jitterNanos < 0 || rateBitsPerSecond < 0 || overheadBytes < 0 || queueLimitBytes <= 0) {
            throw new IllegalArgumentException("link parameters must be non-negative and the queue limit positive");
        }
        if (!(loss >= 0.0 && loss <= 1.0)) {
            throw new IllegalArgumentException("loss must be within [0, 1], was " + loss);
        }
        if (!(reorder >= 0.0 && reorder <= 1.0) || !(duplicate >= 0.0 && duplicate <= 1.0)) {
            throw new IllegalArgumentException("reorder and duplicate must be within [0, 1], were " + reorder + " and " + duplicate);
        }
    }

    /** A wire with no delay, no limit and no loss. */
    public static LinkParams passThrough() {
        return new LinkParams(0, 0, JitterDistribution.UNIFORM, 0, ETHERNET_OVERHEAD, 0.0, DEFAULT_QUEUE_LIMIT, 0.0, 0.0);
    }

    public LinkParams withDelay(long nanos) {
        return new LinkParams(nanos, jitterNanos, jitter, rateBitsPerSecond, overheadBytes, loss, queueLimitBytes, reorder, duplicate);
    }

    public LinkParams withJitter(long nanos, JitterDistribution dist) {
        return new LinkParams(delayNanos, nanos, dist, rateBitsPerSecond, overheadBytes, loss, queueLimitBytes, reorder, duplicate);
    }

    public LinkParams withRate(long bps) {
        return new LinkParams(delayNanos, jitterNanos, jitter, bps, overheadBytes, loss, queueLimitBytes, reorder, duplicate);
    }

    public LinkParams withOverhead(int bytes) {
        return new LinkParams(delayNanos, jitterNanos, jitter, rateBitsPerSecond, bytes, loss, queueLimitBytes, reorder, duplicate);
    }

    public LinkParams withLoss(double p) {
        return new LinkParams(delayNanos, jitterNanos, jitter, rateBitsPerSecond, overheadBytes, p, queueLimitBytes, reorder, duplicate);
    }

    public LinkParams withQueueLimit(long bytes) {
        return new LinkParams(delayNanos, jitterNanos, jitter, rateBitsPerSecond, overheadBytes, loss, bytes, reorder, duplicate);
    }

    public LinkParams withReorder(double p) {
        return new LinkParams(delayNanos, jitterNanos, jitter, rateBitsPerSecond, overheadBytes, loss, queueLimitBytes, p, duplicate);
    }

    public LinkParams withDuplicate(double p) {
        return new LinkParams(delayNanos, jitterNanos, jitter, rateBitsPerSecond, overheadBytes, loss, queueLimitBytes, reorder, p);
    }

    /**
     * Applies "key=value,key=value" overrides (delay, jitter, dist, rate, overhead, loss, queue, reorder,
     * duplicate), the
     * syntax of {@code --a2b} and {@code --b2a}.
     */
    public LinkParams withOverrides(String spec) {
        LinkParams p = this;
        for (String part : spec.split(",")) {
            String s = part.trim();
            if (s.isEmpty()) {
                continue;
            }
            int eq = s.indexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("'" + s + "' is not key=value (keys: " + KEYS + ")");
            }
            String key = s.substring(0, eq).trim().toLowerCase(Locale.ROOT);
            String value = s.substring(eq + 1).trim();
            p = switch (key) {
                case "delay" -> p.withDelay(Units.parseDurationNanos(value));
                case "jitter" -> p.withJitter(Units.parseDurationNanos(value), p.jitter);
                case "dist" -> p.withJitter(p.jitterNanos, JitterDistribution.parse(value));
                case "rate" -> p.withRate(Units.parseRateBitsPerSecond(value));
                case "overhead" -> p.withOverhead(Math.toIntExact(Units.parseBytes(value)));
                case "loss" -> p.withLoss(Units.parseProbability(value));
                case "queue" -> p.withQueueLimit(Units.parseBytes(value));
                case "reorder" -> p.withReorder(Units.parseProbability(value));
                case "duplicate" -> p.withDuplicate(Units.parseProbability(value));
                default -> throw new IllegalArgumentException("unknown link key '" + key
                        + "' (keys: " + KEYS + ")");
            };
        }
        return p;
    }

    /** This link as an override spec with exact values, which {@link #withOverrides} reads back. */
    public String toSpec() {
        return "delay=" + delayNanos + "ns,jitter=" + jitterNanos + "ns,dist=" + jitter.name().toLowerCase(Locale.ROOT)
                + ",rate=" + rateBitsPerSecond + ",overhead=" + overheadBytes + ",loss=" + loss + ",queue=" + queueLimitBytes + ",reorder=" + reorder + ",duplicate=" + duplicate;
    }

    /** Serialisation time of an IP packet of {@code bytes} on this link, in nanoseconds (0 without a rate). */
    public long serialisationNanos(int bytes) {
        if (rateBitsPerSecond == 0) {
            return 0;
        }
        return ((long) (bytes + overheadBytes) * 8_000_000_000L) / rateBitsPerSecond;
    }

    public String describe() {
        StringBuilder b = new StringBuilder("delay ").append(Units.formatNanos(delayNanos));
        if (jitterNanos > 0) {
            b.append(" jitter ").append(Units.formatNanos(jitterNanos)).append(' ').append(jitter.name().toLowerCase(Locale.ROOT));
        }
        b.append(", rate ").append(Units.formatRate(rateBitsPerSecond));
        if (rateBitsPerSecond > 0) {
            b.append(" (+").append(overheadBytes).append(" B/packet, queue ").append(queueLimitBytes).append(" B)");
        }
        if (loss > 0) {
            b.append(", loss ").append(String.format(Locale.ROOT, "%.4g%%", loss * 100));
        }
        if (reorder > 0) {
            b.append(", reorder ").append(String.format(Locale.ROOT, "%.4g%%", reorder * 100));
        }
        if (duplicate > 0) {
            b.append(", duplicate ").append(String.format(Locale.ROOT, "%.4g%%", duplicate * 100));
        }
        return b.toString();
    }
}
