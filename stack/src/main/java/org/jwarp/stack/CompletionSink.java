package org.jwarp.stack;

import org.jwarp.verbs.WorkCompletion;

/**
 * Where the protocol machine puts work completions: a completion queue. The stack fills the slot
 * {@link #claim()} returns and then {@link #publish publishes} it, so no completion is allocated.
 */
public interface CompletionSink {

    /** A slot for the next completion, or null if the queue is full (a CQ overrun). */
    WorkCompletion claim();

    /** Makes the claimed completion visible; {@code solicited} feeds solicited-only notification. */
    void publish(boolean solicited);
}
