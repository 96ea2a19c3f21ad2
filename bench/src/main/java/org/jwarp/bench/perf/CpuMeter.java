package org.jwarp.bench.perf;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * CPU time of one side over a measured interval, split as seed 001 splits it: the application
 * thread (posting, polling; in invoker mode it also runs the engine's duty cycle) and the engine
 * threads (the soft RNIC's "offload engine"). Thread CPU time is user plus system time, so the
 * kernel's TCP work done in a thread's context (system calls, and on loopback most of the
 * receive path) is charged to that thread. The process total catches the rest (GC, JIT).
 *
 * <p>{@link #start()} and {@link #stop()} are called by the application thread being measured.
 */
public final class CpuMeter {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();
    private static final com.sun.management.OperatingSystemMXBean OS =
            ManagementFactory.getOperatingSystemMXBean() instanceof com.sun.management.OperatingSystemMXBean o ? o : null;

    private final List<Thread> engineThreads;
    private long app0;
    private long engine0;
    private long process0;
    private long wall0;
    private long app;
    private long engine;
    private long process;
    private long wall;

    /** @param engineThreads this side's engine threads (empty in invoker mode and for sockets) */
    public CpuMeter(List<Thread> engineThreads) {
        this.engineThreads = List.copyOf(engineThreads);
    }

    public void start() {
        wall0 = System.nanoTime();
        app0 = THREADS.getCurrentThreadCpuTime();
        engine0 = engineCpu();
        process0 = processCpu();
    }

    public void stop() {
        app = THREADS.getCurrentThreadCpuTime() - app0;
        engine = engineCpu() - engine0;
        process = processCpu() - process0;
        wall = System.nanoTime() - wall0;
    }

    public long appNanos() {
        return app;
    }

    public long engineNanos() {
        return engine;
    }

    /** The whole process (both sides on --loopback); -1 if the JVM cannot tell. */
    public long processNanos() {
        return process;
    }

    public long wallNanos() {
        return wall;
    }

    /**
     * The engine threads running in this process now (threads named {@code jwarp-engine*}): with
     * one device open, its engine threads; a caller with several takes the difference around an open.
     */
    public static Set<Thread> engineThreadsNow() {
        Set<Thread> out = new HashSet<>();
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith("jwarp-engine")) {
                out.add(t);
            }
        }
        return out;
    }

    private long engineCpu() {
        long sum = 0;
        for (Thread t : engineThreads) {
            long c = THREADS.getThreadCpuTime(t.threadId());
            if (c > 0) {
                sum += c;
            }
        }
        return sum;
    }

    private static long processCpu() {
        return OS == null ? -1 : OS.getProcessCpuTime();
    }
}
