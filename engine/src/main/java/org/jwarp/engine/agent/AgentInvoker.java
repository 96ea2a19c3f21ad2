package org.jwarp.engine.agent;

import java.util.function.IntSupplier;
import org.jwarp.engine.counters.EngineCounters;

/**
 * Runs an {@link Agent} on the caller's thread, one duty cycle per {@link #invoke()}
 * (JwarpConfig's INVOKER mode, Aeron's invoker: no engine thread; the application's polling
 * thread drives the engine). The caller thread is the agent's owner while it invokes; one thread
 * at a time.
 *
 * <p>A failure is thrown straight to the caller: {@code invoke()} wraps what the agent threw in an
 * {@link AgentFailedException}, records it, reports it to the {@link ErrorHandler}, closes the agent
 * and throws it. Later calls throw an {@link IllegalStateException} whose cause is that failure.
 */
public final class AgentInvoker implements AutoCloseable {

    private final Agent agent;
    private final ErrorHandler errorHandler;
    private final EngineCounters counters;

    private boolean started;
    private boolean closed;
    private long cycles;
    private AgentFailedException failure;

    /** An invoker reporting to {@link ErrorHandler#RECORD_ONLY} and counting nothing. */
    public AgentInvoker(Agent agent) {
        this(agent, ErrorHandler.RECORD_ONLY, null);
    }

    /**
     * @param counters where duty cycles are counted, or {@code null}
     */
    public AgentInvoker(Agent agent, ErrorHandler errorHandler, EngineCounters counters) {
        if (agent == null || errorHandler == null) {
            throw new IllegalArgumentException("agent and errorHandler must not be null");
        }
        this.agent = agent;
        this.errorHandler = errorHandler;
        this.counters = counters;
    }

    /**
     * Calls the agent's {@code onStart} on this thread. Returns {@code this}.
     *
     * @throws AgentFailedException  if {@code onStart} threw (the agent is then closed)
     * @throws IllegalStateException if already started or closed
     */
    public AgentInvoker start() {
        if (started || closed) {
            throw new IllegalStateException("agent invoker '" + agent.roleName() + "' was already "
                    + (closed ? "closed" : "started"));
        }
        started = true;
        try {
            agent.onStart();
        } catch (Throwable t) {
            throw fail("in onStart", t);
        }
        return this;
    }

    /**
     * One duty cycle on the calling thread.
     *
     * @return the agent's work count; 0 once closed
     * @throws AgentFailedException  if {@code doWork} threw (the agent is then closed)
     * @throws IllegalStateException if not started, or if the agent failed earlier
     */
    public int invoke() {
        if (!ready()) {
            return 0;
        }
        int work;
        try {
            work = agent.doWork();
        } catch (Throwable t) {
            throw fail("in doWork at duty cycle " + (cycles + 1), t);
        }
        cycles++;
        if (counters != null) {
            counters.onDutyCycle();
        }
        return work;
    }

    /**
     * One part of a duty cycle on the calling thread — work the agent can do alone, such as sending
     * what was just posted — with a whole cycle's failure handling. Not counted as a cycle.
     *
     * @return what {@code part} returned; 0 once closed
     * @throws AgentFailedException  if {@code part} threw (the agent is then closed)
     * @throws IllegalStateException if not started, or if the agent failed earlier
     */
    public int invoke(IntSupplier part) {
        if (!ready()) {
            return 0;
        }
        try {
            return part.getAsInt();
        } catch (Throwable t) {
            throw fail("in part of duty cycle " + (cycles + 1), t);
        }
    }

    /** False once closed (without a failure); throws if not started or failed. */
    private boolean ready() {
        if (closed) {
            if (failure != null) {
                throw new IllegalStateException("agent '" + agent.roleName() + "' failed earlier", failure);
            }
            return false;
        }
        if (!started) {
            throw new IllegalStateException("agent invoker '" + agent.roleName() + "' is not started");
        }
        return true;
    }

    private AgentFailedException fail(String where, Throwable cause) {
        AgentFailedException f = new AgentFailedException(agent.roleName(), where, cause);
        failure = f;
        try {
            errorHandler.onError(f);
        } catch (Throwable handlerFailure) {
            f.addSuppressed(handlerFailure);
        }
        closeAgent();
        return f;
    }

    private void closeAgent() {
        closed = true;
        try {
            agent.onClose();
        } catch (Throwable t) {
            if (failure != null) {
                failure.addSuppressed(t);
            } else {
                AgentFailedException f = new AgentFailedException(agent.roleName(), "in onClose", t);
                failure = f;
                try {
                    errorHandler.onError(f);
                } catch (Throwable handlerFailure) {
                    f.addSuppressed(handlerFailure);
                }
                throw f;
            }
        }
    }

    /**
     * Calls the agent's {@code onClose} if it was started and is not closed yet. Idempotent.
     *
     * @throws AgentFailedException if {@code onClose} threw
     */
    @Override
    public void close() {
        if (!closed) {
            if (started) {
                closeAgent();
            } else {
                closed = true;
            }
        }
    }

    /** The recorded failure, or {@code null}. */
    public AgentFailedException failure() {
        return failure;
    }

    /** Whether the agent has been closed (by {@link #close()} or a failure). */
    public boolean isClosed() {
        return closed;
    }

    /** Duty cycles completed. */
    public long dutyCycles() {
        return cycles;
    }

    /** The agent. */
    public Agent agent() {
        return agent;
    }
}
