package org.jwarp.engine.agent;

/**
 * Where a runner reports an agent's failure, once, on the agent's thread, just before the agent
 * is closed. The failure is also kept by the runner ({@code failure()}) and rethrown by its
 * {@code close()}, so a handler that only logs cannot make it disappear.
 */
@FunctionalInterface
public interface ErrorHandler {

    /** Reports nothing beyond what the runner records (the failure still surfaces in {@code close()}). */
    ErrorHandler RECORD_ONLY = failure -> {
    };

    /** Called once with the {@link AgentFailedException} (its cause is what the agent threw). */
    void onError(AgentFailedException failure);
}
