package org.jwarp.engine.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import org.jwarp.engine.cm.JwarpListener;
import org.jwarp.engine.io.IoDriver;

/**
 * The listeners an engine thread accepts for, on their sockets' readiness: a sleep they end or a
 * readiness check that finds them says so ({@link IoDriver#takeAcceptReady}), and the next duty
 * cycle accepts. A thread that runs cycles without sleeping, below the readiness threshold, makes
 * no readiness check of its own (above it, the scheduler's checks note the listeners): it makes
 * one for the listeners every {@link #CHECK_NANOS}, or every {@link #CHECK_CYCLES} cycles where
 * the clock does not move that fast (a fake one).
 * Engine thread only, except {@link #deadline}.
 */
final class EngineListeners {

    /** How often a thread that runs cycles without sleeping looks for its listeners' readiness itself. */
    static final long CHECK_NANOS = 100_000L;
    /** Cycles after which it looks whatever the clock says. */
    static final int CHECK_CYCLES = 256;

    private final IoDriver io;
    /** The rings accept direct sockets themselves: no readiness to look for. */
    private final boolean byReadiness;
    private final List<JwarpListener> listeners = new ArrayList<>();
    private long checkedAt;
    private int cyclesSinceCheck;
    /** The earliest time a paused listener resumes (read by the thread about to sleep). */
    private volatile long deadline = Long.MAX_VALUE;

    EngineListeners(IoDriver io, boolean byReadiness) {
        this.io = io;
        this.byReadiness = byReadiness;
    }

    void add(JwarpListener l) {
        listeners.add(l);
    }

    void remove(JwarpListener l) {
        listeners.remove(l);
    }

    boolean isEmpty() {
        return listeners.isEmpty();
    }

    /**
     * Accepts what the listeners' readiness says has come; returns the connections accepted.
     * {@code checked}: the last cycle's scheduler made readiness checks, which note the listeners too.
     */
    int acceptWork(long now, boolean checked) {
        if (checked) {
            checkedAt = now;
            cyclesSinceCheck = 0;
        } else if (byReadiness && (now - checkedAt >= CHECK_NANOS || ++cyclesSinceCheck >= CHECK_CYCLES)) {
            checkedAt = now;
            cyclesSinceCheck = 0;
            try {
                io.pollNow(IoDriver.ReadyHandler.IGNORE);   // level-triggered: the cycle's own check still sees all
            } catch (IOException e) {
                throw new UncheckedIOException("the engine's readiness check failed", e);
            }
        }
        boolean ready = io.takeAcceptReady();
        int accepted = 0;
        long next = Long.MAX_VALUE;
        for (int i = 0; i < listeners.size(); i++) {
            JwarpListener l = listeners.get(i);
            accepted += l.acceptWork(ready, now);
            next = Math.min(next, l.deadline());
        }
        if (next != deadline) {
            deadline = next;
        }
        return accepted;
    }

    /** When a paused listener resumes accepting (the clock's nanoseconds), or {@link Long#MAX_VALUE}. */
    long deadline() {
        return deadline;
    }

    /** Device close, on the thread that owns the stopped engine: every listener stops and closes. */
    void closeAll() {
        for (JwarpListener l : List.copyOf(listeners)) {
            l.stopAccepting();
        }
        listeners.clear();
    }
}
