package org.jwarp.engine.provider;

import org.jwarp.verbs.QpState;

/**
 * A queue pair's state ({@link QpState}, OFED's machine), with one writer: the engine thread that
 * owns the QP. Application threads read it; what they ask for ({@code modify}, connect, accept)
 * reaches the engine as a command. Each transition is named after the event that causes it and is
 * checked against {@link QpState#canTransitionTo}.
 *
 * <pre>
 *   created ─► INIT ──mpaDone──► RTR ──established──► RTS
 *               ▲                 │                    │
 *               └─modify(INIT)── RESET ◄─modify(RESET)─┤   (from any state)
 *                                 ERROR ◄─failed, modify(ERROR)   (from any state)
 * </pre>
 */
public final class QpLifecycle {

    private volatile QpState state = QpState.INIT;

    QpState state() {
        return state;
    }

    /**
     * The MPA exchange is done and the stream runs (INIT → RTR); in peer-to-peer mode the RTR of
     * RFC 6581 is still to be sent or received.
     */
    public void mpaDone() {
        move(QpState.RTR);
    }

    /** The connection is established (RTR → RTS): the application may send. */
    public void established() {
        move(QpState.RTS);
    }

    /**
     * The connection or its setup ended — a Terminate sent or received, TCP lost or closed, a
     * disconnect, a failed setup — (any → ERROR): what is posted flushes.
     */
    public void failed() {
        move(QpState.ERROR);
    }

    /**
     * The application's {@code modify}: ERROR (any → ERROR: flush), RESET (any → RESET: the
     * connection is dropped, queued work discarded without completions), INIT (RESET → INIT, or
     * INIT → INIT: ready for a new connect or accept).
     *
     * @throws IllegalStateException if the transition is not legal from the current state
     */
    void modify(QpState to) {
        if (to == QpState.RTR || to == QpState.RTS) {
            throw new IllegalStateException("a QP reaches " + to + " through the connection manager (connect or"
                    + " accept), not modify; it is " + state);
        }
        move(to);
    }

    /** Throws what {@link #modify} would, without moving. */
    void checkModify(QpState to) {
        if (to == QpState.RTR || to == QpState.RTS) {
            modify(to);
        }
        state.checkTransitionTo(to);
    }

    private void move(QpState to) {
        state = state.checkTransitionTo(to);
    }

    @Override
    public String toString() {
        return state.toString();
    }
}
