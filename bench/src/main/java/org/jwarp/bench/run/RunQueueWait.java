package org.jwarp.bench.run;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.stream.Stream;

/**
 * How long a process's threads have run and have waited runnable for a CPU, per thread, from
 * Linux's {@code /proc/PID/task/TID/schedstat} (run ns, run-queue wait ns, time slices). Two
 * snapshots around a measured pass tell whether a busy-polling thread lost its CPU in it: a
 * poller is always runnable, so its run-queue wait is the time it stood still for want of a CPU.
 */
public record RunQueueWait(Map<Long, long[]> threads) {

    /** A snapshot of process {@code pid}'s threads; empty where {@code /proc} does not say (not Linux, gone). */
    public static RunQueueWait of(long pid) {
        Map<Long, long[]> threads = new HashMap<>();
        try (Stream<Path> tasks = Files.list(Path.of("/proc", Long.toString(pid), "task"))) {
            for (Path t : tasks.toList()) {
                try {
                    String[] f = Files.readString(t.resolve("schedstat")).strip().split("\\s+");
                    threads.put(Long.parseLong(t.getFileName().toString()), new long[] {Long.parseLong(f[0]),
                            Long.parseLong(f[1])});
                } catch (IOException | RuntimeException e) {
                    // a thread that ended between the listing and the read: it ran nothing in the window
                }
            }
        } catch (IOException e) {
            return new RunQueueWait(Map.of());
        }
        return new RunQueueWait(threads);
    }

    /**
     * The run-queue wait, ms, between {@code before} and this snapshot of the thread that ran the
     * most in between (the process's busy poller); NaN if the snapshots share no thread.
     */
    public double busiestThreadWaitMs(RunQueueWait before) {
        long most = -1;
        double waitMs = Double.NaN;
        for (Map.Entry<Long, long[]> t : threads.entrySet()) {
            long[] b = before.threads.get(t.getKey());
            if (b != null && t.getValue()[0] - b[0] > most) {
                most = t.getValue()[0] - b[0];
                waitMs = (t.getValue()[1] - b[1]) / 1e6;
            }
        }
        return waitMs;
    }
}
