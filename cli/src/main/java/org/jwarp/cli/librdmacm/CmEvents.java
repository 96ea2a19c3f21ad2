package org.jwarp.cli.librdmacm;

import java.time.Duration;
import org.jwarp.cli.CmEventText;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventQueue;
import org.jwarp.verbs.RdmaDevice;

/** The examples' rdma_cm event channel: one queue for every id; each step waits at most the timeout. */
final class CmEvents {

    final CmEventQueue queue = new CmEventQueue();
    private final RdmaDevice device;
    final Duration timeout;

    CmEvents(RdmaDevice device, Duration timeout) {
        this.device = device;
        this.timeout = timeout;
    }

    /** The next event within {@code limit}; fails with one line if none comes. */
    CmEvent next(String waitingFor, Duration limit) {
        try {
            CmEvent e = queue.poll(limit, device);
            if (e == null) {
                throw new LibrdmacmException("no rdma_cm event within " + limit.toSeconds() + " s while waiting for "
                        + waitingFor);
            }
            return e;
        } catch (InterruptedException ie) {
            Thread.currentThread().interrupt();
            throw new LibrdmacmException("interrupted while waiting for " + waitingFor);
        }
    }

    /** The next event within the step timeout. */
    CmEvent next(String waitingFor) {
        return next(waitingFor, timeout);
    }

    /** When a step that starts now must have ended. */
    long stepDeadline() {
        return System.nanoTime() + timeout.toNanos();
    }

    /** A failure event, in words (the command's name prefixes the line). */
    static LibrdmacmException failed(CmEvent e) {
        return new LibrdmacmException(CmEventText.describe(e, null));
    }
}
