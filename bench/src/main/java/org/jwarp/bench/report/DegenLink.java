package org.jwarp.bench.report;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.jwarp.bench.experiments.Rows;

/**
 * degen's own statistics for one delay of a sweep, read back from the note an experiment writes
 * ({@code degen at 2.0 ms: } and degen's statistics on one line): per direction, the packets it
 * handed over, those it dropped unasked, and its lateness (actual departure − due time).
 */
record DegenLink(String delayMs, String direction, long packets, long dropped, String p50, String p99, String p999,
                 String max) {

    private static final Pattern NOTE = Pattern.compile("^degen at ([0-9.]+) ms: (.*)$");
    /** A direction's counters: rx and tx packets and bytes, queue, queue_max, then the five drop counters. */
    private static final Pattern COUNTERS = Pattern.compile("\\b(a2b|b2a)((?:\\s+\\d+){11})\\b");
    private static final Pattern LATENESS = Pattern.compile("\\b(a2b|b2a)\\s+n=\\d+ p50=([0-9.]+ \\w+) p99=([0-9.]+ \\w+) "
            + "p99\\.9=([0-9.]+ \\w+) max=([0-9.]+ \\w+)");

    /** The directions of {@code note}, or none if it is no degen note. */
    static List<DegenLink> parse(String note) {
        Matcher m = NOTE.matcher(note);
        List<DegenLink> out = new ArrayList<>();
        if (!m.matches()) {
            return out;
        }
        String delay = Rows.trim(m.group(1));
        String stats = m.group(2);
        Matcher late = LATENESS.matcher(stats);
        while (late.find()) {
            long packets = -1;
            long dropped = -1;
            Matcher c = COUNTERS.matcher(stats);
            while (c.find()) {
                if (c.group(1).equals(late.group(1))) {
                    String[] n = c.group(2).trim().split("\\s+");
                    packets = Long.parseLong(n[2]);
                    dropped = 0;
                    for (int i = 6; i < 11; i++) {
                        dropped += Long.parseLong(n[i]);
                    }
                }
            }
            out.add(new DegenLink(delay, late.group(1).equals("a2b") ? "A → B" : "B → A", packets, dropped,
                    micro(late.group(2)), micro(late.group(3)), micro(late.group(4)), micro(late.group(5))));
        }
        return out;
    }

    /** degen writes microseconds as {@code us}. */
    private static String micro(String time) {
        return time.replace(" us", " µs");
    }

    static boolean isNote(String note) {
        return NOTE.matcher(note).matches();
    }
}
