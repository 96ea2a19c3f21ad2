package org.jwarp.engine.runtime;

import java.io.IOException;
import java.util.function.Consumer;
import org.jwarp.engine.datapath.Connection;
import org.jwarp.engine.io.IoDriver;

/**
 * The readiness check an engine thread's {@link EngineScheduler} asks: one non-blocking poll of
 * the thread's {@link IoDriver} (an {@code epoll_wait}, or a {@code selectNow}), and the
 * connections whose sockets have bytes; other registrations (a tenant's sockets) only wake the
 * engine's sleep. Made once per thread: a duty cycle allocates nothing.
 */
final class DriverReadiness implements EngineScheduler.Readiness<Connection> {

    private final IoDriver io;
    private Consumer<Connection> readable;
    private final IoDriver.ReadyHandler onReady = (attachment, ops) -> {
        if (attachment instanceof Connection c && (ops & IoDriver.OP_READ) != 0) {
            readable.accept(c);
        }
    };

    DriverReadiness(IoDriver io) {
        this.io = io;
    }

    @Override
    public void selectNow(Consumer<Connection> r) throws IOException {
        readable = r;
        io.pollNow(onReady);
    }
}
