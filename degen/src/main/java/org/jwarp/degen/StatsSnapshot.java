package org.jwarp.degen;

import java.io.IOException;
import java.io.Reader;
import java.io.StringWriter;
import java.io.Writer;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Properties;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;
import org.jwarp.degen.DirectionStats.Counter;

/**
 * The emulator's statistics at one moment, as a flat key=value file: the counters of both
 * directions under stable names ({@code a2b.tx_packets}, ...), the delay-error percentiles, and
 * each delay-error histogram in HdrHistogram's compressed encoding, so that a reader can subtract
 * two snapshots and get the error distribution of just the interval between them.
 */
public final class StatsSnapshot {

    public static final String[] DIRECTIONS = {"a2b", "b2a"};

    private final Properties props;

    private StatsSnapshot(Properties props) {
        this.props = props;
    }

    /** Builds a snapshot from live counters and the cumulative delay-error histograms. */
    public static StatsSnapshot of(long uptimeNanos, String[] params, DirectionStats[] stats, Histogram[] errors,
                                   java.util.Map<String, java.util.function.LongSupplier> gauges) {
        Properties p = new Properties();
        p.setProperty("uptime_ns", Long.toString(uptimeNanos));
        gauges.forEach((k, v) -> p.setProperty(k, Long.toString(v.getAsLong())));
        for (int d = 0; d < stats.length; d++) {
            String dir = stats[d].name();
            p.setProperty(dir + ".params", params[d]);
            for (Counter c : Counter.values()) {
                p.setProperty(dir + "." + c.key(), Long.toString(stats[d].get(c)));
            }
            Histogram h = errors[d];
            p.setProperty(dir + ".delay_error_count", Long.toString(h.getTotalCount()));
            p.setProperty(dir + ".delay_error_p50_ns", Long.toString(h.getValueAtPercentile(50)));
            p.setProperty(dir + ".delay_error_p99_ns", Long.toString(h.getValueAtPercentile(99)));
            p.setProperty(dir + ".delay_error_p999_ns", Long.toString(h.getValueAtPercentile(99.9)));
            p.setProperty(dir + ".delay_error_max_ns", Long.toString(h.getMaxValue()));
            ByteBuffer buf = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
            int n = h.encodeIntoCompressedByteBuffer(buf);
            p.setProperty(dir + ".delay_error_hist", Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buf.array(), n)));
        }
        return new StatsSnapshot(p);
    }

    public static StatsSnapshot read(Path file) throws IOException {
        Properties p = new Properties();
        try (Reader r = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
            p.load(r);
        }
        return new StatsSnapshot(p);
    }

    /** Writes atomically (temp file and rename), so a reader never sees half a file. */
    public void write(Path file) throws IOException {
        Path tmp = file.resolveSibling(file.getFileName() + ".tmp");
        try (Writer w = Files.newBufferedWriter(tmp, StandardCharsets.UTF_8)) {
            p().store(w, "jwarp degen statistics; keys are stable");
        }
        Files.move(tmp, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }

    private Properties p() {
        return props;
    }

    public long uptimeNanos() {
        return Long.parseLong(props.getProperty("uptime_ns", "0"));
    }

    /** A router gauge such as {@code router.spin_margin_ns}; 0 if absent. */
    public long gauge(String key) {
        return Long.parseLong(props.getProperty(key, "0"));
    }

    public long counter(String dir, Counter c) {
        return Long.parseLong(props.getProperty(dir + "." + c.key(), "0"));
    }

    /** The cumulative delay-error histogram of a direction (nanoseconds). */
    public Histogram delayErrors(String dir) {
        String enc = props.getProperty(dir + ".delay_error_hist");
        if (enc == null) {
            return new Histogram(DirectionStats.MAX_TRACKED_NANOS, 3);
        }
        try {
            return Histogram.decodeFromCompressedByteBuffer(ByteBuffer.wrap(Base64.getDecoder().decode(enc)), 0);
        } catch (DataFormatException e) {
            throw new IllegalStateException("stats file holds a corrupt " + dir + " histogram", e);
        }
    }

    /**
     * How the link degen gave differs from the one asked for, or empty if it did not: a direction
     * whose delay-error p99 (departure minus due time) exceeds {@code p99ToleranceNanos}, or that
     * dropped packets the link parameters did not ask it to (queue full, TUN full, MTU, send
     * errors). Experiments flag their runs with it.
     */
    public java.util.Optional<String> deviation(long p99ToleranceNanos) {
        List<String> found = new ArrayList<>();
        for (String dir : DIRECTIONS) {
            Histogram h = delayErrors(dir);
            long p99 = h.getValueAtPercentile(99);
            if (h.getTotalCount() > 0 && p99 > p99ToleranceNanos) {
                found.add(dir + " delay error p99 " + Units.formatNanos(p99) + " > " + Units.formatNanos(p99ToleranceNanos));
            }
            long unasked = counter(dir, Counter.DROP_QUEUE) + counter(dir, Counter.DROP_FULL) + counter(dir, Counter.DROP_MTU)
                    + counter(dir, Counter.TX_ERRORS);
            if (unasked > 0) {
                found.add(dir + " " + unasked + " packets dropped or not sent (queue, TUN, MTU, errors)");
            }
        }
        return found.isEmpty() ? java.util.Optional.empty() : java.util.Optional.of(String.join("; ", found));
    }

    /** The human-readable form that {@code jwarp testbed status} and degen's exit print. */
    public String render() {
        StringWriter out = new StringWriter();
        out.write(String.format(Locale.ROOT, "degen statistics after %.1f s%n", uptimeNanos() / 1e9));
        out.write(String.format(Locale.ROOT, "  %-4s %11s %13s %11s %13s %7s %9s %7s %7s %7s %7s %7s%n",
                "dir", "rx_packets", "rx_bytes", "tx_packets", "tx_bytes", "queue", "queue_max",
                "d_loss", "d_queue", "d_mtu", "d_full", "tx_err"));
        for (String dir : DIRECTIONS) {
            out.write(String.format(Locale.ROOT, "  %-4s %11d %13d %11d %13d %7d %9d %7d %7d %7d %7d %7d%n", dir,
                    counter(dir, Counter.RX_PACKETS), counter(dir, Counter.RX_BYTES),
                    counter(dir, Counter.TX_PACKETS), counter(dir, Counter.TX_BYTES),
                    counter(dir, Counter.QUEUE_DEPTH), counter(dir, Counter.QUEUE_DEPTH_MAX),
                    counter(dir, Counter.DROP_LOSS), counter(dir, Counter.DROP_QUEUE),
                    counter(dir, Counter.DROP_MTU), counter(dir, Counter.DROP_FULL), counter(dir, Counter.TX_ERRORS)));
        }
        for (String dir : DIRECTIONS) {
            long down = counter(dir, Counter.DROP_DOWN);
            long reordered = counter(dir, Counter.REORDERED);
            long duplicated = counter(dir, Counter.DUPLICATED);
            if (down + reordered + duplicated > 0) {
                out.write(String.format(Locale.ROOT, "  %-4s faults: %d reordered, %d duplicated, %d dropped while the link was down%n",
                        dir, reordered, duplicated, down));
            }
        }
        out.write(String.format(Locale.ROOT, "  router: spin margin %s, left SCHED_FIFO %d times while saturated, real-time now: %s%n",
                Units.formatNanos(gauge("router.spin_margin_ns")), gauge("router.rt_demotions"),
                gauge("router.realtime") == 1 ? "yes" : "no"));
        out.write("  delay error = actual departure - due time (the emulator's own lateness):\n");
        for (String dir : DIRECTIONS) {
            Histogram h = delayErrors(dir);
            out.write(String.format(Locale.ROOT, "  %-4s n=%d p50=%s p99=%s p99.9=%s max=%s   [%s]%n", dir, h.getTotalCount(),
                    Units.formatNanos(h.getValueAtPercentile(50)), Units.formatNanos(h.getValueAtPercentile(99)),
                    Units.formatNanos(h.getValueAtPercentile(99.9)), Units.formatNanos(h.getMaxValue()),
                    props.getProperty(dir + ".params", "")));
        }
        return out.toString();
    }
}
