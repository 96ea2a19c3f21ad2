package org.jwarp.stack;

/**
 * A send or receive queue as the protocol machine sees it: the oldest posted work request, which
 * stays valid (and owned by the stack) until {@link #advance()} hands its slot back to the poster.
 * The engine implements it over its SPSC rings; tests over an array.
 */
public interface WorkQueue<T> {

    /** The oldest posted request, or null if none. */
    T peek();

    /** Retires the request {@link #peek()} returned. */
    void advance();

    /**
     * Whether the queue is shared with other streams (a shared receive queue, OFED's SRQ): then
     * {@link #peek()} takes the oldest request out of the shared queue for this stream, and keeps
     * returning it until {@link #advance()}; a flush completes only that one, and leaves the
     * requests still in the shared queue to the other streams.
     */
    default boolean shared() {
        return false;
    }
}
