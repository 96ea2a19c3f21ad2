package org.jwarp.bench.perf;

import java.io.IOException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.function.Predicate;

/**
 * CPU time of this process's threads whose name the kernel shows ({@code /proc/self/task/TID/comm},
 * at most 15 characters) passes a test, from the kernel's per-thread scheduler statistics
 * ({@code /proc/self/task/TID/schedstat}: nanoseconds on a CPU, user and system together). Unlike
 * Java's thread MXBean it sees the JVM's own threads (its JIT compilers), and unlike a count of
 * finished work it sees work in progress. A thread that ended during a window drops out of it.
 */
public final class ThreadCpu {

    /** The JVM's JIT compiler threads, as the kernel names them ("C2 CompilerThread0" cut to 15 characters). */
    public static final Predicate<String> JIT_COMPILERS =
            name -> name.startsWith("C1 CompilerThre") || name.startsWith("C2 CompilerThre");

    private ThreadCpu() {
    }

    /** {@return the nanoseconds on a CPU of the threads whose name passes {@code name}; -1 without /proc} */
    public static long nanos(Predicate<String> name) {
        long sum = 0;
        try (DirectoryStream<Path> tasks = Files.newDirectoryStream(Path.of("/proc/self/task"))) {
            for (Path t : tasks) {
                try {
                    if (name.test(Files.readString(t.resolve("comm")).strip())) {
                        sum += Long.parseLong(Files.readString(t.resolve("schedstat")).strip().split("\\s+")[0]);
                    }
                } catch (IOException | RuntimeException ended) {
                    // the thread ended between the listing and the read
                }
            }
        } catch (IOException | RuntimeException e) {
            return -1;
        }
        return sum;
    }
}
