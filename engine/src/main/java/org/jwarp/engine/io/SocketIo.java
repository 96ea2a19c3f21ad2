package org.jwarp.engine.io;

import java.io.IOException;
import java.lang.foreign.MemorySegment;

/**
 * One connection's vectored calls on its non-blocking TCP socket, in one of the layers of
 * {@link IoLayer}. Used only by the thread that owns the connection,
 * which is also the only thread that closes the socket: a layer that works on the raw file
 * descriptor must never see it closed and its number reused under a call.
 */
public interface SocketIo {

    /**
     * Writes as much of {@code v} as the socket takes now, in one call, and advances {@code v} past it.
     *
     * @return bytes taken (0: the socket's send buffer is full)
     * @throws IOException the connection failed (reset, broken pipe)
     * @throws IllegalStateException the arena of a piece's memory was closed: nothing was taken. A
     *                               layer holds the memory's scope for as long as the kernel may
     *                               touch it, so an arena is never freed under a call
     */
    long write(IoVector v) throws IOException;

    /**
     * Reads once into the pieces of {@code v} in order (the vector is not advanced).
     *
     * @return bytes read, 0 if none were waiting, -1 at end of stream
     * @throws IOException the connection failed
     * @throws IllegalStateException the arena of a piece's memory was closed: nothing was read
     */
    long read(IoVector v) throws IOException;

    /**
     * A layer that batches writes across connections queues this one to go out with the others of
     * the engine thread's duty cycle in one system call, and returns true: the owner's flush then
     * hands the call's result to {@code done}, and {@link #written} makes of it what {@link #write}
     * returns. {@code v} must stay as it is until then. False (the default): call {@link #write}.
     */
    default boolean writeLater(IoVector v, IoCompletion done) {
        return false;
    }

    /**
     * The outcome of a write {@link #writeLater} queued: {@code result} as the call returned it
     * (bytes, or -errno); advances {@code v} as {@link #write} does and returns what it returns.
     *
     * @throws IOException the connection failed
     */
    default long written(IoVector v, long result) throws IOException {
        throw new UnsupportedOperationException(layer() + " does not batch writes");
    }

    /** Whether a piece of {@code segment} can go into a call of this layer (else the caller copies it). */
    boolean canAddress(MemorySegment segment);

    /** The layer's name as configured ("nio", "syscalls"). */
    String layer();
}
