package org.jwarp.bench.perf;

import java.time.Duration;

/** The control connection of a run: small messages between sizes, never during a measurement. */
public interface Control {

    /** Sends a message (does not wait for the peer to read it). */
    void send(ControlMessage m);

    /**
     * Waits until what was sent has left this side (before closing the connection after the last
     * message). The peer may close as soon as it has it: that is not an error here.
     */
    void drain();

    /**
     * The next message.
     *
     * @throws PerfException if none arrives within {@code timeout}, the peer closed the connection,
     *                       or the peer sent {@link ControlMessage.Type#ERROR} (its text becomes the message)
     */
    ControlMessage receive(Duration timeout);

    /** As {@link #receive}, and the message must be of {@code type}. */
    default ControlMessage expect(ControlMessage.Type type, Duration timeout) {
        ControlMessage m = receive(timeout);
        if (m.type() != type) {
            throw new PerfException("the peer sent " + m.type() + " where " + type + " was expected: it runs"
                    + " another version of jwarp, or another test");
        }
        return m;
    }
}
