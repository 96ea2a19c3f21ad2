package org.jwarp.cli;

import java.util.Locale;
import org.jwarp.bench.perf.Settings;
import picocli.CommandLine;

/** {@code -s}: bytes, with an optional K, M or G (powers of 1024), from 1 to 1 GiB. */
final class SizeConverter implements CommandLine.ITypeConverter<Integer> {

    static final String HOW = "give bytes from 1 to " + Settings.MAX_SIZE + ", e.g. 65536, 64K or 1M";

    @Override
    public Integer convert(String value) {
        Long v = parse(value);
        if (v == null || v < 1 || v > Settings.MAX_SIZE) {
            throw new CommandLine.TypeConversionException("bad size '" + value + "': " + HOW);
        }
        return v.intValue();
    }

    /** The byte count, or {@code null} if {@code value} is not a number with an optional K/M/G. */
    static Long parse(String value) {
        String v = value.strip().toUpperCase(Locale.ROOT);
        int shift = 0;
        if (v.endsWith("K") || v.endsWith("M") || v.endsWith("G")) {
            shift = switch (v.charAt(v.length() - 1)) {
                case 'K' -> 10;
                case 'M' -> 20;
                default -> 30;
            };
            v = v.substring(0, v.length() - 1);
        }
        if (v.isEmpty() || v.length() > 12 || !v.chars().allMatch(Character::isDigit)) {
            return null;
        }
        return Long.parseLong(v) << shift;
    }
}
