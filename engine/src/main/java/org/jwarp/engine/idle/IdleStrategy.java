package org.jwarp.engine.idle;

/**
 * What a duty-cycle loop does after each cycle, given how much work the cycle did (Agrona's
 * contract): {@code idle(workCount)} with {@code workCount > 0} resets the strategy and returns at
 * once; with 0 it takes one idle step (spin, yield or park, depending on the strategy and on how
 * long the thread has been idle). Implementations allocate nothing and are owned by one thread.
 */
public interface IdleStrategy {

    /**
     * Called after every duty cycle.
     *
     * @param workCount what the cycle returned: 0 means nothing was done, so take an idle step
     */
    void idle(int workCount);

    /**
     * Called instead of {@code idle(workCount)} after a cycle whose work was all on the setup path
     * (commands, steps of MPA exchanges): the thread goes on at once, as after any work, but a
     * strategy that spins after traffic does not spin again for it — the answer to a setup step is
     * a round trip through another process away, longer than a spin, and on a small machine the
     * spin takes the CPU that process needs.
     */
    default void setupWorked() {
        idle(1);
    }

    /** Forgets how long the thread has been idle (the next idle step is the cheapest one). */
    void reset();

    /** Short stable name for logs and configuration echoes, e.g. {@code "backoff"}. */
    String alias();
}
