package org.jwarp.degen;

import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.foreign.Arena;
import java.lang.management.ManagementFactory;
import org.junit.jupiter.api.Test;

/** docs/design.md rule 3: the forwarding path allocates nothing per packet. */
class DelayLineAllocationTest {

    @Test
    void offeringAndReleasingPacketsAllocatesNothing() {
        var mx = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        try (Arena arena = Arena.ofConfined()) {
            LinkParams p = LinkParams.passThrough().withDelay(1_000_000L).withJitter(100_000L, JitterDistribution.NORMAL)
                    .withRate(1_000_000_000L).withLoss(0.01).withReorder(0.01).withDuplicate(0.01);
            DelayLine line = new DelayLine(new LinkModel(p, 1), new PacketQueue(arena.allocate(8 << 20), 4096, 9000),
                    new DirectionStats("a2b"), 9000);
            cycle(line, 0, 200_000); // warm up: let the JIT compile (and scalar-replace) the path
            long tid = Thread.currentThread().threadId();
            long before = mx.getThreadAllocatedBytes(tid);
            cycle(line, 200_000L * 10_000, 200_000);
            long allocated = mx.getThreadAllocatedBytes(tid) - before;
            assertTrue(allocated < 200_000 / 10, "allocated " + allocated + " bytes for 200000 packets");
        }
    }

    private static void cycle(DelayLine line, long start, int packets) {
        long t = start;
        for (int i = 0; i < packets; i++) {
            t += 10_000;
            long at = line.reserve();
            if (at >= 0) {
                line.offer(at, 1500, t);
            }
            while (line.hasDue(t)) {
                line.departed(t);
            }
        }
        while (!line.isEmpty()) {
            long due = line.headDue();
            while (line.hasDue(due)) {
                line.departed(due);
            }
        }
    }
}
