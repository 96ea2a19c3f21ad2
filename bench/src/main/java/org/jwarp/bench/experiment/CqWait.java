package org.jwarp.bench.experiment;

import java.io.IOException;
import java.util.concurrent.TimeUnit;
import org.jwarp.verbs.CompletionChannel;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.WorkCompletion;

/**
 * Waiting for a completion asleep, as {@link CompletionQueue}'s documentation does it: poll, arm,
 * poll again (a completion may have come before arming), then sleep on the channel. A sleeping
 * waiter leaves its CPU to the engine threads on a small machine.
 */
public final class CqWait {

    private CqWait() {
    }

    /**
     * Takes the next completion into {@code wcs[0]}, waiting at most {@code timeoutMs}.
     *
     * @return false if none came in time
     * @throws IOException if it came with an error status
     */
    public static boolean next(CompletionQueue cq, CompletionChannel channel, WorkCompletion[] wcs, long timeoutMs)
            throws IOException, InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMs);
        while (cq.poll(wcs, 1) == 0) {
            cq.requestNotify(false);
            if (cq.poll(wcs, 1) > 0) {
                break;
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            channel.await(Math.min(left, TimeUnit.SECONDS.toNanos(1)), TimeUnit.NANOSECONDS);
        }
        if (!wcs[0].isSuccess()) {
            throw new IOException("work request " + wcs[0].wrId() + " failed: " + wcs[0]);
        }
        return true;
    }
}
