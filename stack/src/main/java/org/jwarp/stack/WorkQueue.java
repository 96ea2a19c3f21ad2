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
}
