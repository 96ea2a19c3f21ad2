package org.jwarp.engine.idle;

import java.util.concurrent.locks.LockSupport;

/**
 * How an idle strategy parks the calling thread. The engine's parker is its
 * {@link org.jwarp.engine.notify.Doorbell}, which publishes "I am asleep" before parking so that a
 * posting thread knows it must unpark it (no lost wake-ups); {@link #PLAIN} is for threads nobody
 * needs to wake early.
 *
 * <p>Whatever the implementation, a {@link LockSupport#unpark} of the parked thread must end the
 * park early: that is the doorbell's wake-up path.
 */
@FunctionalInterface
public interface Parker {

    /** {@link LockSupport#parkNanos(long)}: no early wake-up other than unpark or interrupt. */
    Parker PLAIN = LockSupport::parkNanos;

    /**
     * Parks the calling thread for at most {@code nanos}; returns early on unpark, interrupt or
     * spuriously, as {@link LockSupport#parkNanos(long)} may.
     */
    void park(long nanos);
}
