package org.jwarp.engine.agent;

/**
 * A second client of an engine thread's duty cycle, beside the RDMA connections: the
 * offloaded-sockets personality runs its requests, sockets and events here. Every method runs on
 * the engine thread that carries the tenant (or, after that thread stopped, on the thread that
 * closes the device), never two at once.
 */
public interface EngineTenant {

    /**
     * One pass over the tenant's work. Never blocks (DESIGN rule 2).
     *
     * @param nowNanos the device's clock ({@link EngineSlot#clock()}) at the start of the pass
     * @return how much work was done (0 = none, so that the engine may idle)
     */
    int doWork(long nowNanos);

    /**
     * When the tenant needs the engine next though no socket or doorbell wakes it (a timer), as a
     * {@link EngineSlot#clock()} value; {@link Long#MAX_VALUE} for never. The engine sleeps no longer.
     */
    default long deadline() {
        return Long.MAX_VALUE;
    }

    /** The engine thread failed with {@code cause}: end everything, tell every waiting host thread. */
    void engineFailed(Throwable cause);

    /** The engine stopped (the device closes, or the tenant was detached): release every resource. */
    void shutdown();
}
