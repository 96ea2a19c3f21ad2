package org.jwarp.stack;

import org.jwarp.verbs.RecvWr;

/**
 * One stream's view of a shared receive queue (OFED's SRQ): {@link #peek()} takes the oldest
 * receive out of the shared queue into a request of the stream's own and returns it until
 * {@link #advance()}, so that a message under way keeps its receive while other streams take the
 * next ones. Engine thread of the stream only.
 */
public final class SharedReceiveView implements WorkQueue<RecvWr> {

    /** Where the receives come from. */
    @FunctionalInterface
    public interface Source {
        /** Moves the oldest receive into {@code into}; false if none is posted. */
        boolean take(RecvWr into);
    }

    private final Source source;
    private final RecvWr held;
    private boolean holding;

    public SharedReceiveView(Source source, int maxSge) {
        this.source = source;
        this.held = new RecvWr(maxSge);
    }

    @Override
    public RecvWr peek() {
        if (!holding) {
            if (!source.take(held)) {
                return null;
            }
            holding = true;
        }
        return held;
    }

    @Override
    public void advance() {
        holding = false;
    }

    @Override
    public boolean shared() {
        return true;
    }
}
