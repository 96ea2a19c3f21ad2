package org.jwarp.bench.perf;

/**
 * A benchmark failure the user can act on: its message is one line, printed as is after
 * "jwarp: " (no stack trace). Bugs stay ordinary exceptions.
 */
public class PerfException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public PerfException(String message) {
        super(message);
    }

    public PerfException(String message, Throwable cause) {
        super(message, cause);
    }
}
