package org.jwarp.degen;

import java.util.Locale;
import java.util.SplittableRandom;

/**
 * How a jitter of J is drawn. Both are bounded, so a test (and a user) can rely on the added delay
 * staying within [delay - bound, delay + bound].
 */
public enum JitterDistribution {
    /** Uniform on [-J, +J]. */
    UNIFORM {
        @Override
        long sample(SplittableRandom rng, long jitterNanos) {
            return Math.round((rng.nextDouble() * 2.0 - 1.0) * jitterNanos);
        }

        @Override
        long bound(long jitterNanos) {
            return jitterNanos;
        }
    },
    /** Normal with standard deviation J, truncated at ±3J (redrawn outside) so that it stays bounded. */
    NORMAL {
        @Override
        long sample(SplittableRandom rng, long jitterNanos) {
            // Box-Muller on the owner's generator: no shared java.util.Random, no allocation.
            while (true) {
                double u1 = rng.nextDouble();
                double u2 = rng.nextDouble();
                if (u1 <= 0.0) {
                    continue;
                }
                double z = Math.sqrt(-2.0 * Math.log(u1)) * Math.cos(2.0 * Math.PI * u2);
                if (Math.abs(z) <= 3.0) {
                    return Math.round(z * jitterNanos);
                }
            }
        }

        @Override
        long bound(long jitterNanos) {
            return 3 * jitterNanos;
        }
    };

    abstract long sample(SplittableRandom rng, long jitterNanos);

    /** The largest |sample| this distribution can return for a jitter of J. */
    abstract long bound(long jitterNanos);

    public static JitterDistribution parse(String text) {
        try {
            return valueOf(text.trim().toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("jitter distribution '" + text + "' is not one of uniform, normal", e);
        }
    }
}
