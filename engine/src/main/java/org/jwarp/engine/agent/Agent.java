package org.jwarp.engine.agent;

import org.jwarp.engine.idle.IdleStrategy;

/**
 * One unit of work run in a duty cycle: the engine worker's loop body. All methods are called on
 * the thread that runs the agent (its owner thread, docs/design.md rule 1).
 */
public interface Agent {

    /** Called once on the agent's thread before the first {@link #doWork()}. */
    default void onStart() {
    }

    /**
     * One duty cycle. Never blocks (docs/design.md rule 2): idling is the idle strategy's job.
     *
     * @return how much work was done (0 = none, so the runner may idle)
     * @throws Exception a bug or an unrecoverable setup failure; the runner records it, reports it
     *                   and stops the agent. Data-path errors become completions, not exceptions.
     */
    int doWork() throws Exception;

    /**
     * Whether the last {@link #doWork()}'s work was all on the setup path ({@link IdleStrategy#setupWorked}).
     */
    default boolean setupOnly() {
        return false;
    }

    /** Called once on the agent's thread after the last {@link #doWork()}, also after a failure. */
    default void onClose() {
    }

    /** Stable role name, used for the thread name and in error messages, e.g. {@code engine-0}. */
    String roleName();
}
