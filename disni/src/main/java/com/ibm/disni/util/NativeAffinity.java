package com.ibm.disni.util;

import org.jwarp.engine.affinity.AffinityException;
import org.jwarp.engine.affinity.Cpus;
import org.jwarp.engine.affinity.ThreadAffinity;

/**
 * The calling thread's CPU affinity as a 64-bit mask (CPUs 0..63), through jwarp's FFM downcalls to
 * {@code sched_setaffinity}. Where the platform or the JVM does not allow them, or the mask is empty
 * or names no allowed CPU, the affinity stays as it is: affinity is a placement hint, and DiSNI
 * programs pass masks meant for other machines.
 */
public class NativeAffinity {
    public NativeAffinity() {
    }

    public static void setAffinity(long mask) {
        if (mask == 0) {
            return;
        }
        long[] words = new long[Cpus.MAX_CPUS / 64];
        words[0] = mask;
        try {
            ThreadAffinity.setAffinity(Cpus.fromMask(words));
        } catch (AffinityException | IllegalStateException | UnsupportedOperationException e) {
            // a hint that this machine cannot follow; the thread keeps its affinity
        }
    }

    /** The mask of CPUs 0..63 the thread may run on; all ones where it cannot be read. */
    public static long getAffinity() {
        try {
            return ThreadAffinity.getAffinity().map(c -> c.toMask()[0]).orElse(-1L);
        } catch (AffinityException | IllegalStateException | UnsupportedOperationException e) {
            return -1L;
        }
    }
}
