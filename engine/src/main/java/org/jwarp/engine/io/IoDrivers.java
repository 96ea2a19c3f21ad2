package org.jwarp.engine.io;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;
import org.jwarp.engine.provider.JwarpConfig;

/**
 * Which {@link IoDriver} a device's engine threads get: the configured layer where it can run,
 * {@code auto} resolved to system calls where the JVM shows sockets' descriptors and to NIO (with
 * one line, once per process, saying why) where it does not.
 */
public final class IoDrivers {

    /** Whether the one line on sockets' hidden descriptors (NIO, no TCP_USER_TIMEOUT) was printed. */
    private static final AtomicBoolean SAID_DESCRIPTORS_HIDDEN = new AtomicBoolean();

    private IoDrivers() {
    }

    /**
     * The layer {@code asked} resolves to here ({@code auto}: syscalls or NIO).
     *
     * @throws UnsupportedOperationException if an explicitly asked layer cannot run here (why, in one line)
     */
    public static JwarpConfig.SocketIo choose(JwarpConfig.SocketIo asked) {
        String why = SocketDescriptor.why();
        return switch (asked) {
            case NIO -> JwarpConfig.SocketIo.NIO;
            case SYSCALLS, URING, URING_SQPOLL -> {
                if (why == null && asked != JwarpConfig.SocketIo.SYSCALLS) {
                    why = Uring.why(asked == JwarpConfig.SocketIo.URING_SQPOLL);
                }
                if (why != null) {
                    throw new UnsupportedOperationException("socket I/O layer " + asked.option() + ": " + why);
                }
                yield asked;
            }
            case AUTO -> {
                if (why == null) {
                    yield JwarpConfig.SocketIo.SYSCALLS;
                }
                if (firstWordOnHiddenDescriptors()) {
                    System.err.println("jwarp: socket I/O through NIO, not system calls, and the peer timeout by keepalive"
                            + " only: " + why);
                }
                yield JwarpConfig.SocketIo.NIO;
            }
        };
    }

    /**
     * True the first time in this process only: whoever gets it prints the one line on sockets'
     * hidden descriptors.
     */
    public static boolean firstWordOnHiddenDescriptors() {
        return SAID_DESCRIPTORS_HIDDEN.compareAndSet(false, true);
    }

    /**
     * A new driver for one engine thread in {@code layer} (as {@link #choose} resolved it; AUTO is
     * resolved here).
     *
     * @param deregistrations a count that changes whenever memory the NIO layer's buffer views may
     *                        cover is released (the device's region deregistrations)
     */
    public static IoDriver open(JwarpConfig.SocketIo layer, LongSupplier deregistrations) {
        return switch (layer == JwarpConfig.SocketIo.AUTO ? choose(layer) : layer) {
            case SYSCALLS -> new EpollIoDriver();
            case URING -> new UringIoDriver(false);
            case URING_SQPOLL -> new UringIoDriver(true);
            case NIO, AUTO -> new NioIoDriver(deregistrations);
        };
    }
}
