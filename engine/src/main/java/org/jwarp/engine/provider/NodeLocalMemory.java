package org.jwarp.engine.provider;

import java.lang.foreign.MemorySegment;
import org.jwarp.engine.affinity.MemoryPolicy;
import org.jwarp.engine.affinity.NumaTopology;
import org.jwarp.engine.affinity.ThreadAffinity;

/**
 * Seed 004's memory placement for registered memory: a region is preferred on the NUMA node of the
 * thread that registers it, the application thread that fills and reads it. Pages already there
 * stay; others move. Where placement does not work it says why once and leaves memory where it is.
 */
final class NodeLocalMemory {

    private volatile NumaTopology topology;
    private volatile boolean failureReported;

    /** Prefers the calling thread's node for {@code segment} (native memory only). */
    void place(MemorySegment segment) {
        if (!segment.isNative()) {
            return;
        }
        int node = topology().nodeOf(ThreadAffinity.currentCpu());
        if (node < 0) {
            return;
        }
        String failure = MemoryPolicy.preferNode(segment, node);
        if (failure != null && !failureReported) {
            failureReported = true;
            System.err.println("jwarp: NUMA placement: registered memory stays where it is: " + failure);
        }
    }

    private NumaTopology topology() {
        NumaTopology t = topology;
        if (t == null) {
            t = NumaTopology.read();
            topology = t;
        }
        return t;
    }
}
