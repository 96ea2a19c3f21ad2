package org.jwarp.engine.runtime;

import java.io.IOException;
import java.nio.channels.SelectionKey;
import java.util.function.Consumer;
import org.jwarp.engine.datapath.Connection;

/**
 * The readiness check an engine thread's {@link EngineScheduler} asks: one {@code selectNow} on
 * the thread's selector (an {@code epoll_wait}), and the connections whose sockets have bytes.
 * Made once per thread: a duty cycle allocates nothing.
 */
final class SelectorReadiness implements EngineScheduler.Readiness<Connection> {

    private final SelectorSleeper sleeper;
    private Consumer<Connection> readable;
    private final Consumer<SelectionKey> onKey = key -> {
        if (key.attachment() instanceof Connection c && key.isValid() && key.isReadable()) {
            readable.accept(c);
        }
    };

    SelectorReadiness(SelectorSleeper sleeper) {
        this.sleeper = sleeper;
    }

    @Override
    public void selectNow(Consumer<Connection> r) throws IOException {
        readable = r;
        sleeper.selector().selectNow(onKey);
    }
}
