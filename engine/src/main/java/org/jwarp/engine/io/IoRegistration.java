package org.jwarp.engine.io;

import java.io.IOException;

/**
 * A channel watched by an {@link IoDriver}: its interest (the {@link IoDriver#OP_READ} bits) and
 * its attachment. Used by the driver's owning thread only.
 */
public interface IoRegistration {

    /** What the channel is watched for now. */
    int interestOps();

    /**
     * Watches for {@code ops} from now on (0: for nothing until changed again).
     *
     * @throws IOException the layer refused the change (the channel was closed, say)
     */
    void interestOps(int ops) throws IOException;

    /** What the driver hands its ready handler for this channel. */
    Object attachment();

    /** Whether the channel is still watched (not cancelled). */
    boolean isValid();

    /**
     * Stops watching the channel; no report for it follows, even from a poll under way. Before
     * the channel is closed. Idempotent.
     */
    void cancel();
}
