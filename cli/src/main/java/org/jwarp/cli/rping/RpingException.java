package org.jwarp.cli.rping;

/** An rping run failed; the message is one line for the user, naming what failed and why. */
public class RpingException extends Exception {

    private static final long serialVersionUID = 1L;

    public RpingException(String message) {
        super(message);
    }

    /** The connection ended (the peer disconnected): the normal end of a server's loop. */
    static final class Disconnected extends RpingException {
        private static final long serialVersionUID = 1L;

        Disconnected(String message) {
            super(message);
        }
    }
}
