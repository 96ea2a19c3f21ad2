package org.jwarp.bench.loopback;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;

/** Per-thread CPU time, the way seed 001 charges CPU to each side. */
final class CpuTime {

    private static final ThreadMXBean THREADS = ManagementFactory.getThreadMXBean();

    private CpuTime() {
    }

    static long thread() {
        return THREADS.getCurrentThreadCpuTime();
    }

    /** CPU time of every live thread whose name starts with {@code prefix}. */
    static long threadsNamed(String prefix) {
        long sum = 0;
        for (Thread t : Thread.getAllStackTraces().keySet()) {
            if (t.getName().startsWith(prefix)) {
                long c = THREADS.getThreadCpuTime(t.threadId());
                if (c > 0) {
                    sum += c;
                }
            }
        }
        return sum;
    }
}
