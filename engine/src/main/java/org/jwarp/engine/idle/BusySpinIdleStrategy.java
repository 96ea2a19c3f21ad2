package org.jwarp.engine.idle;

/**
 * Busy-spins with {@link Thread#onSpinWait()} (a PAUSE on x86): the lowest hand-off latency, one
 * core burnt per thread. docs/design.md: never more spinners than cores ({@code JwarpConfig} enforces it).
 */
public final class BusySpinIdleStrategy implements IdleStrategy {

    /** Stateless, so one instance serves every thread. */
    public static final BusySpinIdleStrategy INSTANCE = new BusySpinIdleStrategy();

    private BusySpinIdleStrategy() {
    }

    @Override
    public void idle(int workCount) {
        if (workCount <= 0) {
            Thread.onSpinWait();
        }
    }

    @Override
    public void reset() {
    }

    @Override
    public String alias() {
        return "spin";
    }

    @Override
    public String toString() {
        return "BusySpinIdleStrategy";
    }
}
