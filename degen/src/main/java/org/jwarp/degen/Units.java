package org.jwarp.degen;

import java.util.Locale;

/**
 * Parses and prints the quantities degen is configured with: durations ("10ms", "250us", "0"),
 * bit rates ("100mbit", "1g", "0" for unlimited), byte sizes ("1m", "64k") and probabilities
 * ("0.5%", "0.005"). Parsing is strict: anything it does not understand is an
 * {@link IllegalArgumentException} whose message says what was expected.
 */
public final class Units {

    private Units() {
    }

    /** A duration in nanoseconds; units ns, us, ms, s; a bare number means milliseconds (like ping). */
    public static long parseDurationNanos(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        long scale;
        String num;
        if (t.endsWith("ns")) {
            scale = 1L;
            num = t.substring(0, t.length() - 2);
        } else if (t.endsWith("us") || t.endsWith("µs")) {
            scale = 1_000L;
            num = t.substring(0, t.length() - 2);
        } else if (t.endsWith("ms")) {
            scale = 1_000_000L;
            num = t.substring(0, t.length() - 2);
        } else if (t.endsWith("s")) {
            scale = 1_000_000_000L;
            num = t.substring(0, t.length() - 1);
        } else {
            scale = 1_000_000L;
            num = t;
        }
        double v = parseNonNegative(num, text, "a duration such as 10ms, 250us or 1s");
        double nanos = v * scale;
        if (nanos > 3600e9) {
            throw new IllegalArgumentException("'" + text + "' is longer than an hour; degen delays are meant to be WAN-sized");
        }
        return Math.round(nanos);
    }

    /** A bit rate in bits per second; units k/m/g with optional "bit", "b/s" or "bps"; 0 means unlimited. */
    public static long parseRateBitsPerSecond(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        for (String suffix : new String[] {"bit/s", "bits/s", "bps", "b/s", "bit"}) {
            if (t.endsWith(suffix)) {
                t = t.substring(0, t.length() - suffix.length());
                break;
            }
        }
        long scale = 1L;
        if (t.endsWith("k")) {
            scale = 1_000L;
        } else if (t.endsWith("m")) {
            scale = 1_000_000L;
        } else if (t.endsWith("g")) {
            scale = 1_000_000_000L;
        }
        if (scale != 1L) {
            t = t.substring(0, t.length() - 1);
        }
        double v = parseNonNegative(t, text, "a rate such as 100mbit, 1g or 0 (unlimited)");
        double bps = v * scale;
        if (bps > 1e12) {
            throw new IllegalArgumentException("rate '" + text + "' is above 1 Tb/s");
        }
        if (bps != 0 && bps < 1000) {
            throw new IllegalArgumentException("rate '" + text + "' is below 1 kbit/s; give units, e.g. 100mbit");
        }
        return Math.round(bps);
    }

    /** A size in bytes; units k/m/g are binary (1k = 1024) as in tc. */
    public static long parseBytes(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        if (t.endsWith("b")) {
            t = t.substring(0, t.length() - 1);
        }
        long scale = 1L;
        if (t.endsWith("k")) {
            scale = 1L << 10;
        } else if (t.endsWith("m")) {
            scale = 1L << 20;
        } else if (t.endsWith("g")) {
            scale = 1L << 30;
        }
        if (scale != 1L) {
            t = t.substring(0, t.length() - 1);
        }
        return Math.round(parseNonNegative(t, text, "a size such as 1m, 64k or 1500") * scale);
    }

    /** A probability: "1%" or "0.01". */
    public static double parseProbability(String text) {
        String t = text.trim();
        double p = t.endsWith("%")
                ? parseNonNegative(t.substring(0, t.length() - 1), text, "a probability such as 0.1% or 0.001") / 100.0
                : parseNonNegative(t, text, "a probability such as 0.1% or 0.001");
        if (p > 1.0) {
            throw new IllegalArgumentException("probability '" + text + "' is above 100%");
        }
        return p;
    }

    private static double parseNonNegative(String num, String original, String expected) {
        double v;
        try {
            v = Double.parseDouble(num);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("'" + original + "' is not " + expected, e);
        }
        if (!(v >= 0) || Double.isInfinite(v)) {
            throw new IllegalArgumentException("'" + original + "' is not " + expected);
        }
        return v;
    }

    /** "1.25 ms", "830 us", "120 ns": the unit that keeps 3 significant digits readable. */
    public static String formatNanos(long nanos) {
        long a = Math.abs(nanos);
        if (a >= 1_000_000_000L) {
            return String.format(Locale.ROOT, "%.3f s", nanos / 1e9);
        }
        if (a >= 1_000_000L) {
            return String.format(Locale.ROOT, "%.3f ms", nanos / 1e6);
        }
        if (a >= 1_000L) {
            return String.format(Locale.ROOT, "%.1f us", nanos / 1e3);
        }
        return nanos + " ns";
    }

    /** "100 Mb/s", "1 Gb/s", "unlimited". */
    public static String formatRate(long bps) {
        if (bps == 0) {
            return "unlimited";
        }
        if (bps >= 1_000_000_000L) {
            return String.format(Locale.ROOT, "%.3g Gb/s", bps / 1e9);
        }
        if (bps >= 1_000_000L) {
            return String.format(Locale.ROOT, "%.3g Mb/s", bps / 1e6);
        }
        return String.format(Locale.ROOT, "%.3g kb/s", bps / 1e3);
    }
}
