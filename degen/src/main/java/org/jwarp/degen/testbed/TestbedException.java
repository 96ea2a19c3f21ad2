package org.jwarp.degen.testbed;

import java.io.IOException;

/** A testbed operation cannot be done as asked; the message is one line saying why and what to do. */
public final class TestbedException extends IOException {

    private static final long serialVersionUID = 1L;

    public TestbedException(String message) {
        super(message);
    }

    public TestbedException(String message, Throwable cause) {
        super(message, cause);
    }
}
