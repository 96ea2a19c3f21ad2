package org.jwarp.engine.io;

/**
 * Whether a sleep or a poll of a driver found a listening channel ready since the duty cycle last
 * asked ({@link IoDriver#takeAcceptReady}): noted by whichever thread saw it (the sleeper may not
 * be the thread that runs the next cycle), taken once.
 */
final class AcceptReadiness {

    private volatile boolean ready;

    /** A listener was seen ready. */
    void note() {
        ready = true;
    }

    /** Whether one was seen since the last call; clears it. */
    boolean take() {
        if (!ready) {
            return false;
        }
        ready = false;
        return true;
    }
}
