package org.jwarp.engine.io;

/**
 * Where the result of a socket call queued for a batch ({@link SocketIo#writeLater}) goes once the
 * engine thread's flush has it.
 */
@FunctionalInterface
public interface IoCompletion {

    /** {@code result}: the call's return, bytes or -errno. */
    void completed(long result);
}
