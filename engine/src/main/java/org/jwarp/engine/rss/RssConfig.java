package org.jwarp.engine.rss;

import java.time.Duration;
import java.util.HexFormat;

/**
 * Receive-Side Scaling (seed 004) for a device with several engine threads: each new connection,
 * in both roles, goes to the engine thread that the Toeplitz hash of its 4-tuple picks through an
 * indirection table of {@code tableSize} entries; a rebalancer may rewrite entries, moving their
 * connections with their queue pairs under traffic.
 *
 * @param steering  how new connections are spread: by RSS hash (default), round robin, or all on
 *                  engine thread 0 (the baselines of seed 004's experiment)
 * @param tableSize the indirection table's entries, a power of two (1..65536; default 128)
 * @param key       the Toeplitz key as hex digits, at least 40 bytes; empty for the RSS
 *                  specification's default key
 * @param rebalance when the rebalancer rewrites entries
 * @param period    how often it looks at the engine threads' load
 * @param threshold {@link Rebalance#THRESHOLD}: it moves an entry when the busiest engine thread
 *                  carried more than this many times the average (above 1.0)
 */
public record RssConfig(Steering steering, int tableSize, String key, Rebalance rebalance, Duration period,
                        double threshold) {

    /** RSS steering, 128 entries, the default key, no rebalancing (period 1 s, threshold 1.5 when switched on). */
    public static final RssConfig DEFAULT = new RssConfig(Steering.RSS, 128, "", Rebalance.OFF, Duration.ofSeconds(1),
            1.5);

    /** How a new connection's engine thread is chosen. */
    public enum Steering {
        /** The Toeplitz hash of its 4-tuple through the indirection table. */
        RSS,
        /** The next engine thread in turn. */
        ROUND_ROBIN,
        /** Engine thread 0, always. */
        ONE
    }

    /** The smallest key: enough for an IPv6 4-tuple (36 bytes) and the 32-bit window. */
    public static final int MIN_KEY_BYTES = 40;

    /** When the rebalancer moves table entries. */
    public enum Rebalance {
        /** Never: a connection stays on the engine thread its hash picked. */
        OFF,
        /** Every period, the busiest entry of the busiest engine thread moves to the least busy one. */
        PERIODIC,
        /** As PERIODIC, but only when the busiest engine thread carried over threshold × the average. */
        THRESHOLD
    }

    /**
     * Validates the configuration; a null key is the default key.
     *
     * @throws IllegalArgumentException if the table size is not a power of two in 1..65536, the key is not
     *                                  hex of at least {@value #MIN_KEY_BYTES} bytes, the period is not
     *                                  positive or the threshold is not above 1.0
     */
    public RssConfig {
        if (steering == null) {
            throw new IllegalArgumentException("steering must not be null");
        }
        if (tableSize < 1 || tableSize > 65536 || Integer.bitCount(tableSize) != 1) {
            throw new IllegalArgumentException("the RSS indirection table size must be a power of two from 1 to 65536,"
                    + " not " + tableSize);
        }
        if (key == null) {
            key = "";
        }
        if (!key.isEmpty()) {
            byte[] k;
            try {
                k = HexFormat.of().parseHex(key);
            } catch (IllegalArgumentException e) {
                throw new IllegalArgumentException("the RSS key takes hex digits, two per byte: " + key);
            }
            if (k.length < MIN_KEY_BYTES) {
                throw new IllegalArgumentException("the RSS key needs at least " + MIN_KEY_BYTES + " bytes, not "
                        + k.length);
            }
        }
        if (rebalance == null || period == null) {
            throw new IllegalArgumentException("rebalance and period must not be null");
        }
        if (period.isNegative() || period.isZero()) {
            throw new IllegalArgumentException("the rebalancing period must be positive: " + period);
        }
        if (!(threshold > 1.0)) {
            throw new IllegalArgumentException("the rebalancing threshold must be above 1.0 (times the average): "
                    + threshold);
        }
    }

    /** {@return the key's bytes, or null for the default key} */
    public byte[] keyBytes() {
        return key.isEmpty() ? null : HexFormat.of().parseHex(key);
    }

    /**
     * This configuration with another steering.
     *
     * @param s how new connections are spread
     * @return the new configuration
     */
    public RssConfig withSteering(Steering s) {
        return new RssConfig(s, tableSize, key, rebalance, period, threshold);
    }

    /**
     * This configuration with another indirection table size.
     *
     * @param size the table's entries, a power of two
     * @return the new configuration
     */
    public RssConfig withTableSize(int size) {
        return new RssConfig(steering, size, key, rebalance, period, threshold);
    }

    /**
     * This configuration with another Toeplitz key.
     *
     * @param hex the key as hex digits, or empty for the default key
     * @return the new configuration
     */
    public RssConfig withKey(String hex) {
        return new RssConfig(steering, tableSize, hex, rebalance, period, threshold);
    }

    /**
     * This configuration with other rebalancing.
     *
     * @param r when the rebalancer rewrites entries
     * @param p how often it looks at the load
     * @param t the load over the average that triggers {@link Rebalance#THRESHOLD}
     * @return the new configuration
     */
    public RssConfig withRebalance(Rebalance r, Duration p, double t) {
        return new RssConfig(steering, tableSize, key, r, p, t);
    }
}
