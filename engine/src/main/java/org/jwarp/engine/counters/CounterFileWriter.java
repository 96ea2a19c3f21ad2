package org.jwarp.engine.counters;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.lang.invoke.VarHandle;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import org.jwarp.verbs.Counters;

/**
 * The owner's side of a {@link CounterFile}: creates and maps the file, writes the layout when
 * the set of counter groups changes, and copies the values in with release stores on each
 * {@link #publish}. One publishing thread at a time (calls are serialized); {@link #close}
 * unmaps and deletes the file.
 */
public final class CounterFileWriter implements AutoCloseable {

    private static final VarHandle LONG = ValueLayout.JAVA_LONG.varHandle();

    private final Path path;
    private final Arena arena;
    private final MemorySegment file;
    private final List<String> layoutScopes = new ArrayList<>();
    private final List<List<String>> layoutNames = new ArrayList<>();
    private long[] valueOffsets = new long[0];
    private int groupsInLayout;
    private long layoutSeq;
    private long publishCount;
    private boolean closed;

    private CounterFileWriter(Path path, Arena arena, MemorySegment file) {
        this.path = path;
        this.arena = arena;
        this.file = file;
    }

    /**
     * Creates (or replaces: a file left by a dead process with a reused pid) the counters file of
     * device {@code device} of process {@code pid} in {@code directory}, which is created if needed.
     */
    public static CounterFileWriter create(Path directory, long pid, long startMillis, int device, String label,
                                           long periodMillis) throws IOException {
        Files.createDirectories(directory);
        Path path = CounterFile.path(directory, pid, device);
        Arena arena = Arena.ofShared();
        MemorySegment file;
        try (FileChannel ch = FileChannel.open(path, StandardOpenOption.CREATE, StandardOpenOption.READ,
                StandardOpenOption.WRITE, StandardOpenOption.TRUNCATE_EXISTING)) {
            file = ch.map(FileChannel.MapMode.READ_WRITE, 0, CounterFile.FILE_LENGTH, arena);
        } catch (IOException | RuntimeException e) {
            arena.close();
            Files.deleteIfExists(path);
            throw e;
        }
        file.set(ValueLayout.JAVA_INT, CounterFile.VERSION_OFFSET, CounterFile.VERSION);
        file.set(ValueLayout.JAVA_INT, CounterFile.HEADER_LENGTH_OFFSET, CounterFile.HEADER_LENGTH);
        file.set(ValueLayout.JAVA_LONG, CounterFile.PID_OFFSET, pid);
        file.set(ValueLayout.JAVA_LONG, CounterFile.START_OFFSET, startMillis);
        file.set(ValueLayout.JAVA_LONG, CounterFile.PERIOD_OFFSET, periodMillis);
        file.set(ValueLayout.JAVA_INT, CounterFile.DEVICE_OFFSET, device);
        byte[] l = truncatedUtf8(label, CounterFile.LABEL_CAPACITY);
        file.set(ValueLayout.JAVA_INT, CounterFile.LABEL_LENGTH_OFFSET, l.length);
        MemorySegment.copy(l, 0, file, ValueLayout.JAVA_BYTE, CounterFile.LABEL_OFFSET, l.length);
        // the magic goes last: a reader that sees it sees the whole header
        LONG.setRelease(file, (long) CounterFile.MAGIC_OFFSET, CounterFile.MAGIC);
        return new CounterFileWriter(path, arena, file);
    }

    public Path path() {
        return path;
    }

    /** Publications so far. */
    public synchronized long publishCount() {
        return publishCount;
    }

    /**
     * Copies every group's values into the file (rewriting the layout first if the groups'
     * scopes or names changed), then bumps the publish count. No-op once closed.
     */
    public synchronized void publish(List<? extends Counters> groups) {
        if (closed) {
            return;
        }
        if (!sameLayout(groups)) {
            writeLayout(groups);
        }
        for (int g = 0; g < groupsInLayout; g++) {
            Counters c = groups.get(g);
            long base = valueOffsets[g];
            int n = layoutNames.get(g).size();
            for (int i = 0; i < n; i++) {
                LONG.setRelease(file, base + 8L * i, c.get(i));
            }
        }
        LONG.setRelease(file, (long) CounterFile.PUBLISHED_AT_OFFSET, System.currentTimeMillis());
        publishCount++;
        LONG.setRelease(file, (long) CounterFile.PUBLISH_COUNT_OFFSET, publishCount);
    }

    private boolean sameLayout(List<? extends Counters> groups) {
        if (groups.size() != layoutScopes.size()) {
            return false;
        }
        for (int g = 0; g < groups.size(); g++) {
            Counters c = groups.get(g);
            if (!c.scope().equals(layoutScopes.get(g)) || !c.names().equals(layoutNames.get(g))) {
                return false;
            }
        }
        return true;
    }

    /** Rewrites the groups under the layout sequence lock (odd while writing). */
    private void writeLayout(List<? extends Counters> groups) {
        layoutSeq++;
        LONG.setVolatile(file, (long) CounterFile.LAYOUT_SEQ_OFFSET, layoutSeq); // no store below moves above it
        layoutScopes.clear();
        layoutNames.clear();
        valueOffsets = new long[groups.size()];
        long at = CounterFile.HEADER_LENGTH;
        int written = 0;
        boolean truncated = false;
        for (Counters c : groups) {
            byte[] scope = c.scope().getBytes(StandardCharsets.UTF_8);
            List<String> names = c.names();
            byte[][] nameBytes = new byte[names.size()][];
            int namesLength = 0;
            for (int i = 0; i < names.size(); i++) {
                nameBytes[i] = truncatedUtf8(names.get(i), 0xFFFF);
                namesLength += 2 + nameBytes[i].length;
            }
            long labels = align8(16L + scope.length + namesLength);
            long length = labels + 8L * names.size();
            if (at + length + 4 > file.byteSize()) {
                truncated = true;
                break;
            }
            file.asSlice(at, labels).fill((byte) 0);
            file.set(ValueLayout.JAVA_INT, at, (int) length);
            file.set(ValueLayout.JAVA_INT, at + 4, names.size());
            file.set(ValueLayout.JAVA_INT, at + 8, scope.length);
            file.set(ValueLayout.JAVA_INT, at + 12, namesLength);
            long p = at + 16;
            MemorySegment.copy(scope, 0, file, ValueLayout.JAVA_BYTE, p, scope.length);
            p += scope.length;
            for (byte[] nb : nameBytes) {
                file.set(ValueLayout.JAVA_SHORT_UNALIGNED, p, (short) nb.length);
                MemorySegment.copy(nb, 0, file, ValueLayout.JAVA_BYTE, p + 2, nb.length);
                p += 2 + nb.length;
            }
            valueOffsets[written] = at + labels;
            for (int i = 0; i < names.size(); i++) {
                // the values come with the layout: a reader never sees a counter fall back to 0
                file.set(ValueLayout.JAVA_LONG, at + labels + 8L * i, c.get(i));
            }
            layoutScopes.add(c.scope());
            layoutNames.add(List.copyOf(names));
            written++;
            at += length;
        }
        file.set(ValueLayout.JAVA_INT, at, 0); // end of the list
        groupsInLayout = written;
        file.set(ValueLayout.JAVA_INT, CounterFile.GROUP_COUNT_OFFSET, written);
        file.set(ValueLayout.JAVA_INT, CounterFile.FLAGS_OFFSET, truncated ? CounterFile.FLAG_TRUNCATED : 0);
        if (truncated) {
            // remember the layout as the groups given, so that it is not rewritten on every publication
            for (int g = written; g < groups.size(); g++) {
                layoutScopes.add(groups.get(g).scope());
                layoutNames.add(List.copyOf(groups.get(g).names()));
            }
        }
        layoutSeq++;
        LONG.setRelease(file, (long) CounterFile.LAYOUT_SEQ_OFFSET, layoutSeq);
    }

    private static long align8(long n) {
        return (n + 7) & ~7L;
    }

    private static byte[] truncatedUtf8(String s, int max) {
        byte[] b = s.getBytes(StandardCharsets.UTF_8);
        if (b.length <= max) {
            return b;
        }
        int n = max;
        while (n > 0 && (b[n] & 0xC0) == 0x80) {
            n--; // do not cut a character in two
        }
        return java.util.Arrays.copyOf(b, n);
    }

    /** Unmaps and deletes the file; idempotent. */
    @Override
    public synchronized void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        try {
            Files.deleteIfExists(path);
        } finally {
            arena.close();
        }
    }
}
