package org.jwarp.engine.runtime;

import java.util.Comparator;
import java.util.PriorityQueue;
import org.jwarp.engine.datapath.Connection;

/**
 * The timers of an engine thread's connections that may be parked meanwhile (a silent peer's
 * nudge, a responder's hold for the initiator's first FPDU): when one is due its connection is
 * visited again, so that a connection waiting only on the clock costs no duty cycle until then.
 * Setup path: an entry or two per connection; one that ended or moved to another engine thread
 * meanwhile is skipped when its time comes. Engine thread only.
 */
final class ParkedTimers {

    /** Visit {@code c} again from {@code at} (the clock's nanoseconds) on. */
    private record Wake(Connection c, long at) {
    }

    private final PriorityQueue<Wake> wakes = new PriorityQueue<>(Comparator.comparingLong(Wake::at));

    void add(Connection c, long at) {
        wakes.add(new Wake(c, at));
    }

    /** The connections of {@code owner} whose timers are due at {@code now} are visited again. */
    void wakeDue(long now, EngineWorker owner) {
        Wake w;
        while ((w = wakes.peek()) != null && now - w.at() >= 0) {
            wakes.poll();
            if (w.c().owner() == owner && !w.c().finished()) {
                owner.unpark(w.c());
            }
        }
    }

    /** The earliest timer, or {@link EngineScheduler#NO_TIMER}. */
    long earliest() {
        Wake w = wakes.peek();
        return w == null ? EngineScheduler.NO_TIMER : w.at();
    }

    /** Every timer is forgotten (device close). */
    void clear() {
        wakes.clear();
    }
}
