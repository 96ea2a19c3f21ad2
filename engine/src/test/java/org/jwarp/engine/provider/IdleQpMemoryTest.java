package org.jwarp.engine.provider;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.management.BufferPoolMXBean;
import java.lang.management.ManagementFactory;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.DeviceLimits;
import org.junit.jupiter.api.Test;

/**
 * Memory per connected idle QP (issue 13: at most 64 KiB): many QP pairs connected over loopback in
 * one process, the Java heap and the JVM's direct and native-segment memory measured before and
 * after. Staging buffers belong to the engine threads, so an idle connection holds none. The
 * kernel's socket buffers are not counted (they are the same for any TCP program).
 * {@code -Djwarp.test.idleQps=N} sets the number of pairs (default 300).
 */
class IdleQpMemoryTest {

    static final long LIMIT_PER_QP = 64 * 1024;

    @Test
    void anIdleConnectedQpHoldsAtMost64KiB() throws Exception {
        int pairs = Integer.getInteger("jwarp.test.idleQps", 300);
        DeviceConfig config = LoopbackPair.dedicated().toBuilder()
                .limits(DeviceLimits.DEFAULT.withMaxQps(Math.max(DeviceLimits.DEFAULT.maxQps(), pairs + 8))).build();
        try (ManyConnections m = new ManyConnections(config)) {
            m.connect(4); // warm-up
            long before = used();
            m.connect(pairs);
            long after = used();
            long perQp = (after - before) / (2L * pairs);
            System.out.printf("%d connected idle QP pairs: %d B of heap and direct memory per QP (%s layer)%n",
                    pairs, perQp, m.client.socketIoLayer());
            assertTrue(perQp <= LIMIT_PER_QP, perQp + " B per idle QP, over " + LIMIT_PER_QP);
        }
    }

    /** Heap after a full collection, plus direct buffers and native segments (both reserve direct memory). */
    static long used() throws InterruptedException {
        for (int i = 0; i < 3; i++) {
            System.gc();
            Thread.sleep(50);
        }
        long heap = ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
        long direct = 0;
        for (BufferPoolMXBean b : ManagementFactory.getPlatformMXBeans(BufferPoolMXBean.class)) {
            if (b.getName().equals("direct")) {
                direct = b.getMemoryUsed();
            }
        }
        return heap + direct;
    }
}
