package org.jwarp.bench.scale;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import org.jwarp.bench.perf.ThreadCpu;

/**
 * CPU time of this process's engine threads (every thread whose name starts with
 * {@code jwarp-engine}: dedicated engine threads and hybrid mode's standby thread; {@link ThreadCpu}),
 * and of the whole process ({@code /proc/self/stat}, clock ticks).
 */
public final class EngineCpu {

    private static final String PREFIX = "jwarp-engine";
    private static final long TICK_NANOS = 10_000_000L; // USER_HZ 100 on Linux

    private EngineCpu() {
    }

    /** One reading: engine threads' and the process's CPU time, with the wall clock. */
    public record Reading(long engineNanos, long processNanos, long wallNanos) {

        /** {@return % of one CPU the engine threads used from {@code before} to this reading} */
        public double enginePercent(Reading before) {
            return 100.0 * (engineNanos - before.engineNanos) / (wallNanos - before.wallNanos);
        }

        /** {@return % of one CPU the process used from {@code before} to this reading} */
        public double processPercent(Reading before) {
            return 100.0 * (processNanos - before.processNanos) / (wallNanos - before.wallNanos);
        }
    }

    /** {@return the CPU time so far} */
    public static Reading read() {
        long engine = ThreadCpu.nanos(name -> name.startsWith(PREFIX));
        if (engine < 0) {
            throw new IllegalStateException("cannot read /proc/self/task: this needs Linux's /proc");
        }
        return new Reading(engine, processNanos(), System.nanoTime());
    }

    private static long processNanos() {
        try {
            String stat = Files.readString(Path.of("/proc/self/stat"));
            // fields after the command's closing parenthesis; utime and stime are the 14th and 15th
            String[] f = stat.substring(stat.lastIndexOf(')') + 2).split(" ");
            return (Long.parseLong(f[11]) + Long.parseLong(f[12])) * TICK_NANOS;
        } catch (IOException | RuntimeException e) {
            return 0;
        }
    }
}
