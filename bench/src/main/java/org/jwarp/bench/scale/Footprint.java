package org.jwarp.bench.scale;

import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.io.IOException;
import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;

/**
 * What this process holds at one moment, as a leak or a per-connection cost shows in it: the Java
 * heap after a full collection, the JVM's direct memory (direct buffers and native segments both
 * reserve it), the resident set (all user memory, JVM internals and malloc included, but not the
 * kernel's socket buffers), open file descriptors and live Java threads.
 *
 * @param heapBytes   heap in use after {@code System.gc()}
 * @param directBytes the "direct" buffer pool: {@code ByteBuffer.allocateDirect} and {@code Arena} segments
 * @param rssBytes    resident set size ({@code /proc/self/statm})
 * @param fds         entries of {@code /proc/self/fd}
 * @param threads     live Java threads (the JVM's hidden compiler threads, which come and go, excluded)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
public record Footprint(long heapBytes, long directBytes, long rssBytes, int fds, int threads) {

    private static final long PAGE = 4096;

    /** Now, after full collections (so that heap and freed direct buffers settle). */
    public static Footprint now() {
        for (int i = 0; i < 3; i++) {
            System.gc();
            try {
                Thread.sleep(50);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
        }
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        long direct = 0;
        for (BufferPoolMXBean b : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (b.getName().equals("direct")) {
                direct = b.getMemoryUsed();
            }
        }
        return new Footprint(heap, direct, rss(), countFds(), ManagementFactory.getThreadMXBean().getThreadCount());
    }

    /**
     * Now, once threads and descriptors stop changing (up to 2 s): a start to compare with, taken
     * after a device closed, must not count that device's threads still on their way out.
     */
    public static Footprint settled() {
        Footprint last = now();
        for (int i = 0; i < 20; i++) {
            Footprint next = now();
            if (next.fds == last.fds && next.threads == last.threads) {
                return next;
            }
            last = next;
        }
        return last;
    }

    /**
     * This process now minus {@code start}, given up to 5 s for ended threads, closed descriptors
     * and freed direct memory to go (a thread that was told to stop may still be on its way out).
     */
    public static Footprint settledSince(Footprint start) {
        Footprint left = now().minus(start);
        for (int i = 0; i < 50 && (left.fds > 0 || left.threads > 0 || left.directBytes > 0); i++) {
            try {
                Thread.sleep(100);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                break;
            }
            left = now().minus(start);
        }
        return left;
    }

    /** Heap and direct memory: what {@code bytes_per_qp} counts. */
    @JsonIgnore
    public long javaBytes() {
        return heapBytes + directBytes;
    }

    /** {@code this} minus {@code before}, field by field. */
    public Footprint minus(Footprint before) {
        return new Footprint(heapBytes - before.heapBytes, directBytes - before.directBytes,
                rssBytes - before.rssBytes, fds - before.fds, threads - before.threads);
    }

    private static int countFds() {
        try (Stream<Path> s = Files.list(Path.of("/proc/self/fd"))) {
            return (int) s.count() - 1; // the directory stream's own descriptor
        } catch (IOException e) {
            return -1;
        }
    }

    private static long rss() {
        try {
            String[] f = Files.readString(Path.of("/proc/self/statm")).trim().split("\\s+");
            return Long.parseLong(f[1]) * PAGE;
        } catch (IOException | RuntimeException e) {
            return -1;
        }
    }
}
