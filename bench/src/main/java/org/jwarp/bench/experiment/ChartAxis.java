package org.jwarp.bench.experiment;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.TreeSet;

/**
 * One axis of an {@link SvgChart}: its scale (logarithmic or linear, the linear one from 0), the
 * range it covers and where its ticks go, mapped onto a pixel span.
 */
final class ChartAxis {

    /** Distinct data values up to this many become the ticks of a logarithmic axis themselves. */
    private static final int DATA_TICKS = 10;

    private final boolean log;
    private final double lo;
    private final double hi;
    private final List<Double> ticks;

    private ChartAxis(boolean log, double lo, double hi, List<Double> ticks) {
        this.log = log;
        this.lo = lo;
        this.hi = hi;
        this.ticks = ticks;
    }

    /**
     * A logarithmic axis over {@code values} (all > 0): a few data values are the ticks themselves
     * (sizes, connection counts: the points a reader looks for) if {@code dataTicks}; else, or if
     * there are more, the decades.
     */
    static ChartAxis log(TreeSet<Double> values, boolean dataTicks) {
        double min = values.isEmpty() ? 1 : values.first();
        double max = values.isEmpty() ? 10 : values.last();
        if (max / min < 2) {
            min /= 2;
            max *= 2;
        }
        double pad = Math.pow(max / min, 0.04);
        List<Double> ticks = new ArrayList<>();
        if (dataTicks && values.size() <= DATA_TICKS) {
            ticks.addAll(values);
        } else if (dataTicks && values.stream().allMatch(ChartAxis::powerOfTwo)) {
            // sizes and buffer counts: every few powers of two, so that the ticks read 1, 16, 256, 4Ki...
            int first = Math.getExponent(min);
            int last = Math.getExponent(max);
            int stride = Math.max(1, (last - first + DATA_TICKS - 1) / DATA_TICKS);
            for (int e = first; e <= last; e += stride) {
                ticks.add(Math.scalb(1.0, e));
            }
        } else {
            for (double d = Math.pow(10, Math.floor(Math.log10(min))); d <= max; d *= 10) {
                for (int m : new int[] {1, 2, 5}) {
                    if (d * m >= min && d * m <= max && (m == 1 || max / min < 1000)) {
                        ticks.add(d * m);
                    }
                }
            }
        }
        return new ChartAxis(true, min / pad, max * pad, ticks);
    }

    /** A linear axis from 0 to a round number at or above {@code max}, with about five ticks. */
    static ChartAxis linearFromZero(double max) {
        double top = max > 0 ? max : 1;
        double step = niceStep(top / 5);
        double end = Math.ceil(top / step - 1e-9) * step;
        List<Double> ticks = new ArrayList<>();
        for (int i = 0; i * step <= end + step / 1e6; i++) {
            ticks.add(i * step);
        }
        return new ChartAxis(false, 0, end, ticks);
    }

    private static boolean powerOfTwo(double v) {
        return v >= 1 && v == Math.rint(v) && Long.bitCount((long) v) == 1;
    }

    private static double niceStep(double raw) {
        double decade = Math.pow(10, Math.floor(Math.log10(raw)));
        for (double m : new double[] {1, 2, 2.5, 5}) {
            if (m * decade >= raw) {
                return m * decade;
            }
        }
        return 10 * decade;
    }

    List<Double> ticks() {
        return ticks;
    }

    /** Where {@code v} falls on the span from {@code from} (the axis' low end) to {@code to}. */
    double place(double v, double from, double to) {
        double f = log ? Math.log(v / lo) / Math.log(hi / lo) : (v - lo) / (hi - lo);
        return from + f * (to - from);
    }

    /**
     * A tick's label: whole numbers as they are, multiples of 1024 in Ki and Mi (sizes), other
     * large numbers in k and M, fractions to three significant digits.
     */
    String label(double v) {
        if (log && v >= 1024 && v % 1024 == 0) {
            return v % (1 << 20) == 0 ? whole(v / (1 << 20)) + "Mi" : whole(v / 1024) + "Ki";
        }
        if (log && v >= 10_000) {
            return v >= 1e6 ? trim(v / 1e6) + "M" : trim(v / 1e3) + "k";
        }
        return trim(v);
    }

    private static String whole(double v) {
        return String.format(Locale.ROOT, "%.0f", v);
    }

    /** {@code v} to three significant digits, without trailing zeros. */
    static String trim(double v) {
        if (v == Math.rint(v) && Math.abs(v) < 1e15) {
            return whole(v);
        }
        String s = new java.math.BigDecimal(v).round(new java.math.MathContext(3)).stripTrailingZeros().toPlainString();
        return s.equals("-0") ? "0" : s;
    }
}
