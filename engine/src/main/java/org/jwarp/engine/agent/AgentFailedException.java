package org.jwarp.engine.agent;

import java.io.Serial;

/**
 * An agent stopped because {@code onStart}, {@code doWork} or {@code onClose} threw. The cause is
 * the original exception; the message names the agent, the phase and the duty cycle.
 */
public final class AgentFailedException extends RuntimeException {

    @Serial
    private static final long serialVersionUID = 1L;

    private final String roleName;

    public AgentFailedException(String roleName, String message, Throwable cause) {
        super("agent '" + roleName + "' failed " + message + ": " + cause, cause);
        this.roleName = roleName;
    }

    /** The failed agent's role name. */
    public String roleName() {
        return roleName;
    }
}
