package org.jwarp.engine.counters;

/**
 * Stable scope names of counter groups (docs/design.md rule 9): tools read them by name, so they are
 * built here and nowhere else.
 */
public final class CounterScopes {

    /** The device-wide total. */
    public static final String DEVICE = "device";
    /** The connection manager: what happened to connection setups. */
    public static final String CM = "cm";

    private CounterScopes() {
    }

    /** {@code engine-<index>}: engine thread {@code index} (0-based). */
    public static String engine(int index) {
        return "engine-" + nonNegative("engine index", index);
    }

    /** {@code qp-<qpNum>}: a queue pair by its QP number. */
    public static String qp(int qpNum) {
        return "qp-" + nonNegative("QP number", qpNum);
    }

    /** {@code channel-<handle>}: a completion channel. */
    public static String channel(int handle) {
        return "channel-" + nonNegative("channel handle", handle);
    }

    private static int nonNegative(String what, int v) {
        if (v < 0) {
            throw new IllegalArgumentException(what + " must be >= 0: " + v);
        }
        return v;
    }
}
