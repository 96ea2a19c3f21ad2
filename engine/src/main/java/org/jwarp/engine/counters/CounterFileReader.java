package org.jwarp.engine.counters;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;

/**
 * The reading side of a {@link CounterFile}, for another process ({@code jwarp stat}) or the same
 * one: maps a file read-only and takes a consistent snapshot of its groups — the layout under its
 * sequence lock, each value with an acquire load. {@link #readAll} lists the files of live
 * processes and removes those whose process is gone.
 */
public final class CounterFileReader {

    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();
    private static final int ATTEMPTS = 100_000;

    private CounterFileReader() {
    }

    /** One counter group as read. */
    public record Group(String scope, List<String> names, long[] values) {

        /** The value of {@code name}, or -1 if the group has no such counter. */
        public long get(String name) {
            int i = names.indexOf(name);
            return i < 0 ? -1 : values[i];
        }
    }

    /** One device's counters as read. */
    public record Snapshot(Path file, long pid, long startMillis, int device, String label, long publishCount,
                           long publishedAtMillis, long periodMillis, boolean truncated, List<Group> groups) {

        /** The group of {@code scope}, if present. */
        public Optional<Group> group(String scope) {
            return groups.stream().filter(g -> g.scope().equals(scope)).findFirst();
        }
    }

    /** A file that is not a counters file, or not one this reader understands. */
    public static final class FormatException extends IOException {
        public FormatException(String message) {
            super(message);
        }
    }

    /**
     * Reads one counters file.
     *
     * @throws FormatException if it is not a counters file of {@link CounterFile#VERSION}, or is
     *                         not yet initialized
     * @throws IOException     if it cannot be read (e.g. it was removed meanwhile)
     */
    public static Snapshot read(Path file) throws IOException {
        try (Arena arena = Arena.ofConfined(); FileChannel ch = FileChannel.open(file, StandardOpenOption.READ)) {
            long size = ch.size();
            if (size < CounterFile.HEADER_LENGTH) {
                throw new FormatException(file + " is too short for a counters file (" + size + " bytes)");
            }
            MemorySegment m = ch.map(FileChannel.MapMode.READ_ONLY, 0, size, arena);
            return read(file, m);
        }
    }

    static Snapshot read(Path file, MemorySegment m) throws FormatException {
        long magic = (long) LONG.getAcquire(m, (long) CounterFile.MAGIC_OFFSET);
        if (magic != CounterFile.MAGIC) {
            throw new FormatException(file + " is not a jwarp counters file (magic " + Long.toHexString(magic) + ")");
        }
        int version = m.get(ValueLayout.JAVA_INT, CounterFile.VERSION_OFFSET);
        if (version != CounterFile.VERSION) {
            throw new FormatException(file + " has counters file version " + version + "; this reader knows "
                    + CounterFile.VERSION);
        }
        long pid = m.get(ValueLayout.JAVA_LONG, CounterFile.PID_OFFSET);
        long start = m.get(ValueLayout.JAVA_LONG, CounterFile.START_OFFSET);
        long period = m.get(ValueLayout.JAVA_LONG, CounterFile.PERIOD_OFFSET);
        int device = m.get(ValueLayout.JAVA_INT, CounterFile.DEVICE_OFFSET);
        int labelLength = Math.clamp(m.get(ValueLayout.JAVA_INT, CounterFile.LABEL_LENGTH_OFFSET), 0,
                CounterFile.LABEL_CAPACITY);
        String label = utf8(m, CounterFile.LABEL_OFFSET, labelLength);
        for (int attempt = 0; attempt < ATTEMPTS; attempt++) {
            long before = (long) LONG.getAcquire(m, (long) CounterFile.LAYOUT_SEQ_OFFSET);
            if ((before & 1) != 0) {
                backOff(attempt); // the owner is rewriting the layout
                continue;
            }
            List<Group> groups = groups(m);
            long count = (long) LONG.getAcquire(m, (long) CounterFile.PUBLISH_COUNT_OFFSET);
            long at = (long) LONG.getAcquire(m, (long) CounterFile.PUBLISHED_AT_OFFSET);
            boolean truncated = (m.get(ValueLayout.JAVA_INT, CounterFile.FLAGS_OFFSET) & CounterFile.FLAG_TRUNCATED) != 0;
            VarHandle.loadLoadFence(); // everything above is read before the sequence is checked again
            long after = (long) LONG.getVolatile(m, (long) CounterFile.LAYOUT_SEQ_OFFSET);
            if (groups != null && before == after) {
                return new Snapshot(file, pid, start, device, label, count, at, period, truncated, groups);
            }
            backOff(attempt);
        }
        throw new FormatException(file + ": the layout kept changing while it was read");
    }

    private static void backOff(int attempt) {
        if (attempt < 100) {
            Thread.onSpinWait();
        } else {
            Thread.yield(); // let the owner finish (it may share this CPU)
        }
    }

    /** The groups, or null if what was read does not hold together (a layout being rewritten). */
    private static List<Group> groups(MemorySegment m) {
        List<Group> out = new ArrayList<>();
        long at = CounterFile.HEADER_LENGTH;
        long end = m.byteSize();
        while (at + 16 <= end) {
            int length = m.get(ValueLayout.JAVA_INT, at);
            if (length == 0) {
                return out;
            }
            int n = m.get(ValueLayout.JAVA_INT, at + 4);
            int scopeLength = m.get(ValueLayout.JAVA_INT, at + 8);
            int namesLength = m.get(ValueLayout.JAVA_INT, at + 12);
            long labels = (16L + scopeLength + namesLength + 7) & ~7L;
            if (length < 0 || n < 0 || scopeLength < 0 || namesLength < 0 || (length & 7) != 0
                    || labels + 8L * n != length || at + length > end) {
                return null;
            }
            String scope = utf8(m, at + 16, scopeLength);
            List<String> names = new ArrayList<>(n);
            long p = at + 16 + scopeLength;
            long namesEnd = p + namesLength;
            for (int i = 0; i < n; i++) {
                if (p + 2 > namesEnd) {
                    return null;
                }
                int nl = Short.toUnsignedInt(m.get(ValueLayout.JAVA_SHORT_UNALIGNED, p));
                if (p + 2 + nl > namesEnd) {
                    return null;
                }
                names.add(utf8(m, p + 2, nl));
                p += 2 + nl;
            }
            long[] values = new long[n];
            for (int i = 0; i < n; i++) {
                values[i] = (long) LONG.getAcquire(m, at + labels + 8L * i);
            }
            out.add(new Group(scope, List.copyOf(names), values));
            at += length;
        }
        return null;
    }

    private static String utf8(MemorySegment m, long offset, int length) {
        byte[] b = new byte[length];
        MemorySegment.copy(m, ValueLayout.JAVA_BYTE, offset, b, 0, length);
        return new String(b, StandardCharsets.UTF_8);
    }

    /**
     * The counters of every live jwarp process in {@code directory}, ordered by pid and device.
     * Files whose process is gone (or whose pid now belongs to another process) are skipped, and
     * deleted if {@code removeStale}; files that cannot be read are skipped. An absent directory
     * holds no files.
     */
    public static List<Snapshot> readAll(Path directory, boolean removeStale) throws IOException {
        if (directory == null || !Files.isDirectory(directory)) {
            return List.of();
        }
        List<Snapshot> out = new ArrayList<>();
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*" + CounterFile.SUFFIX)) {
            for (Path f : files) {
                long pid = CounterFile.pidOf(f);
                if (pid < 0) {
                    continue;
                }
                Snapshot s;
                try {
                    s = read(f);
                } catch (NoSuchFileException e) {
                    continue; // its device closed meanwhile
                } catch (IOException e) {
                    if (removeStale && !ProcessHandle.of(pid).map(ProcessHandle::isAlive).orElse(false)) {
                        Files.deleteIfExists(f);
                    }
                    continue;
                }
                if (!alive(s.pid(), s.startMillis())) {
                    if (removeStale) {
                        Files.deleteIfExists(f);
                    }
                    continue;
                }
                out.add(s);
            }
        }
        out.sort(Comparator.comparingLong(Snapshot::pid).thenComparingInt(Snapshot::device));
        return Collections.unmodifiableList(out);
    }

    /**
     * True if process {@code pid} is running and is the one that started at {@code startMillis}
     * (as far as the system reports start times; a second of slack): a reused pid is not alive.
     */
    public static boolean alive(long pid, long startMillis) {
        Optional<ProcessHandle> h = ProcessHandle.of(pid);
        if (h.isEmpty() || !h.get().isAlive()) {
            return false;
        }
        Optional<Instant> started = h.get().info().startInstant();
        return started.isEmpty() || startMillis <= 0 || Math.abs(started.get().toEpochMilli() - startMillis) <= 1000;
    }

    /** This process's start time as {@link #alive} compares it (now, if the system does not say). */
    public static long processStartMillis() {
        return ProcessHandle.current().info().startInstant().map(Instant::toEpochMilli)
                .orElseGet(System::currentTimeMillis);
    }
}
