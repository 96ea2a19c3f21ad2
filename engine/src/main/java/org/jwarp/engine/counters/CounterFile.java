package org.jwarp.engine.counters;

import java.nio.file.Files;
import java.nio.file.Path;

/**
 * The counters file through which a process publishes a device's counters to other processes
 * (docs/design.md rule 9, {@code jwarp stat}), in the style of Aeron's CnC file: one memory-mapped file
 * per device, fixed header, then the counter groups, values as aligned 64-bit words in the host's
 * byte order. The owner writes every value with release semantics and readers load them with
 * acquire semantics, so a reader sees each counter as published, never torn, without locks.
 *
 * <pre>
 * offset  size  field
 *      0     8  magic "JWARPCNT" (0x4A57415250434E54 in the host's order: a reader on another
 *               byte order sees a different number)
 *      8     4  format version ({@link #VERSION})
 *     12     4  header length ({@link #HEADER_LENGTH})
 *     16     8  pid of the owning process
 *     24     8  start time of the owning process, ms since the epoch (as ProcessHandle reports it)
 *     32     8  layout sequence: odd while the groups below are rewritten, even when stable
 *     40     8  publish count: incremented after every publication of the values
 *     48     8  time of the last publication, ms since the epoch
 *     56     8  publication period, ms
 *     64     4  device index within the process
 *     68     4  label length in bytes (at most {@link #LABEL_CAPACITY})
 *     72    48  label, UTF-8 (e.g. "jwarp invoker")
 *    120     4  number of groups in the layout
 *    124     4  flags: bit 0 set if some groups did not fit
 *    128        groups, one after another:
 *                 4  group length in bytes (a multiple of 8; 0 ends the list)
 *                 4  number of counters n
 *                 4  scope length s, UTF-8 bytes follow
 *                 4  names length m: n names follow, each a 2-byte length and UTF-8 bytes
 *                 .  scope, names, zero padding to a multiple of 8
 *               8*n  values, in the names' order
 * </pre>
 *
 * The layout changes only when groups come or go (a queue pair created or destroyed); the values
 * are rewritten in place. A reader takes the layout sequence before and after it reads and
 * retries if it changed or was odd (a sequence lock).
 */
public final class CounterFile {

    /** "JWARPCNT" in ASCII, as a long. */
    public static final long MAGIC = 0x4A57_4152_5043_4E54L;
    public static final int VERSION = 1;
    public static final int HEADER_LENGTH = 128;
    public static final int LABEL_CAPACITY = 48;
    /** File size: room for some thousand queue pairs' counters. */
    public static final long FILE_LENGTH = 1 << 20;
    /** File name suffix: {@code <pid>-<device>.counters}. */
    public static final String SUFFIX = ".counters";
    /** System property naming the directory; "off" stops publishing. */
    public static final String DIRECTORY_PROPERTY = "jwarp.stat.dir";
    /** Environment variable naming the directory (for {@code jwarp stat} and other readers). */
    public static final String DIRECTORY_ENV = "JWARP_STAT_DIR";
    /** System property: publication period in ms. */
    public static final String PERIOD_PROPERTY = "jwarp.stat.periodMillis";
    public static final long DEFAULT_PERIOD_MILLIS = 200;

    static final int MAGIC_OFFSET = 0;
    static final int VERSION_OFFSET = 8;
    static final int HEADER_LENGTH_OFFSET = 12;
    static final int PID_OFFSET = 16;
    static final int START_OFFSET = 24;
    static final int LAYOUT_SEQ_OFFSET = 32;
    static final int PUBLISH_COUNT_OFFSET = 40;
    static final int PUBLISHED_AT_OFFSET = 48;
    static final int PERIOD_OFFSET = 56;
    static final int DEVICE_OFFSET = 64;
    static final int LABEL_LENGTH_OFFSET = 68;
    static final int LABEL_OFFSET = 72;
    static final int GROUP_COUNT_OFFSET = 120;
    static final int FLAGS_OFFSET = 124;
    static final int FLAG_TRUNCATED = 1;

    private CounterFile() {
    }

    /**
     * Where counters files live: the system property {@value #DIRECTORY_PROPERTY}, else the
     * environment variable {@value #DIRECTORY_ENV}, else {@code /dev/shm/jwarp} where
     * {@code /dev/shm} is a writable directory (memory, never written back to a disk), else
     * {@code jwarp} under {@code java.io.tmpdir}. Null if the property says "off".
     */
    public static Path directory() {
        String p = System.getProperty(DIRECTORY_PROPERTY);
        if (p == null || p.isBlank()) {
            p = System.getenv(DIRECTORY_ENV);
        }
        if (p != null && !p.isBlank()) {
            return p.equalsIgnoreCase("off") ? null : Path.of(p);
        }
        Path shm = Path.of("/dev/shm");
        if (Files.isDirectory(shm) && Files.isWritable(shm)) {
            return shm.resolve("jwarp");
        }
        return Path.of(System.getProperty("java.io.tmpdir"), "jwarp");
    }

    /** The file of device {@code device} of process {@code pid}. */
    public static Path path(Path directory, long pid, int device) {
        return directory.resolve(pid + "-" + device + SUFFIX);
    }

    /** The pid a counters file name carries, or -1 if the name is not one. */
    public static long pidOf(Path file) {
        String n = file.getFileName().toString();
        if (!n.endsWith(SUFFIX)) {
            return -1;
        }
        int dash = n.indexOf('-');
        if (dash <= 0) {
            return -1;
        }
        try {
            Integer.parseInt(n.substring(dash + 1, n.length() - SUFFIX.length()));
            return Long.parseLong(n.substring(0, dash));
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    /** The publication period: {@value #PERIOD_PROPERTY} or {@link #DEFAULT_PERIOD_MILLIS}. */
    public static long periodMillis() {
        long p = Long.getLong(PERIOD_PROPERTY, DEFAULT_PERIOD_MILLIS);
        if (p < 1) {
            throw new IllegalArgumentException(PERIOD_PROPERTY + " must be at least 1 ms: " + p);
        }
        return p;
    }
}
