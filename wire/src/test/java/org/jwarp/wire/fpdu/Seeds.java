package org.jwarp.wire.fpdu;

import java.util.random.RandomGenerator;
import java.util.random.RandomGeneratorFactory;

/**
 * Seeded randomness for property tests. The base seed is fixed so runs repeat; set
 * {@code -Djwarp.seed=N} to explore others. Every case derives its own seed, which the failing
 * assertion prints, so one case can be replayed alone.
 */
public final class Seeds {

    public static final long BASE = Long.getLong("jwarp.seed", 0x6A77_6172_70L);

    private Seeds() {
    }

    public static long caseSeed(String property, int index) {
        return BASE ^ (property.hashCode() * 0x9E3779B97F4A7C15L) ^ (index * 0xC2B2AE3D27D4EB4FL);
    }

    public static RandomGenerator random(long seed) {
        return RandomGeneratorFactory.of("L64X128MixRandom").create(seed);
    }
}
