package org.jwarp.engine.counters;

import java.util.ArrayList;
import java.util.List;

import org.jwarp.engine.notify.Doorbell;
import org.jwarp.verbs.CounterNames;
import org.jwarp.verbs.CounterSet;
import org.jwarp.verbs.Counters;

/**
 * The counters of one engine thread: the standard names of {@link CounterNames#STANDARD} plus
 * {@link #DUTY_CYCLES} and {@link #IDLE_PARKS}.
 *
 * <p>Two writers feed them, each on its own cache lines: the engine thread writes
 * {@link #owned()} (a single-writer {@link CounterSet}: FPDUs, bytes, Terminates, CRC errors, duty
 * cycles), and the engine's {@link Doorbell} counts doorbells, wake-ups and parks, because posting
 * threads ring it and an atomic add there lands on the line they already write. {@link #view()}
 * is the sum of both, the one {@code jwarp stat} shows. The engine never increments
 * {@code doorbells}, {@code wakeups} or {@code idle.parks} in {@link #owned()}: those stay 0 there.
 */
public final class EngineCounters {

    /** Duty cycles run (calls to the agent's {@code doWork()}). */
    public static final String DUTY_CYCLES = "duty.cycles";
    /** Parks the engine thread actually entered (idle steps that gave the CPU away). */
    public static final String IDLE_PARKS = "idle.parks";

    /** Every name of an engine's counters, in {@link #view()} order. */
    public static final List<String> NAMES;

    static {
        List<String> names = new ArrayList<>(CounterNames.STANDARD);
        names.add(DUTY_CYCLES);
        names.add(IDLE_PARKS);
        NAMES = List.copyOf(names);
    }

    private final CounterSet owned;
    private final Counters view;
    private final int dutyCycles;

    /**
     * @param scope    the stable scope name, {@link CounterScopes#engine(int)}
     * @param doorbell the engine thread's doorbell, whose counters are added in
     */
    public EngineCounters(String scope, Doorbell doorbell) {
        if (doorbell == null) {
            throw new IllegalArgumentException("doorbell must not be null");
        }
        this.owned = new CounterSet(scope, NAMES);
        this.view = Counters.sum(scope, List.of(owned, doorbell.counters(scope)));
        this.dutyCycles = owned.require(DUTY_CYCLES);
    }

    /** The engine thread's own counters: only that thread increments them. */
    public CounterSet owned() {
        return owned;
    }

    /** The read-only sum of the engine's and the doorbell's counters; any thread. */
    public Counters view() {
        return view;
    }

    /** Engine thread: one more duty cycle. */
    public void onDutyCycle() {
        owned.increment(dutyCycles);
    }

    /** The stable scope name. */
    public String scope() {
        return owned.scope();
    }

    @Override
    public String toString() {
        return view.toString();
    }
}
