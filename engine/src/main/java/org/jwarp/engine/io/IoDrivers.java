package org.jwarp.engine.io;

import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * Which {@link IoDriver} an engine thread gets: a layer checked to run here
 * ({@link #check}), or the machine's choice ({@link #auto()}: system calls where the JVM shows
 * sockets' descriptors, NIO with one line, once per process, saying why where it does not).
 * Adding a layer: an {@link IoLayer} constant, its case in {@link #check} and {@link #open}.
 */
public final class IoDrivers {

    /** Whether the one line on sockets' hidden descriptors (NIO, no TCP_USER_TIMEOUT) was printed. */
    private static final AtomicBoolean SAID_DESCRIPTORS_HIDDEN = new AtomicBoolean();

    private IoDrivers() {
    }

    /**
     * Why {@code layer} cannot run here, in one line; null if it can.
     *
     * @param layer a layer
     * @return the reason, or null
     */
    public static String whyNot(IoLayer layer) {
        return switch (layer) {
            case NIO -> null;
            case SYSCALLS -> SocketDescriptor.why();
            case URING, URING_SQPOLL -> {
                String why = SocketDescriptor.why();
                yield why != null ? why : Uring.why(layer == IoLayer.URING_SQPOLL);
            }
            case URING_DIRECT -> DirectRing.why();
        };
    }

    /**
     * {@code asked}, once it is known to run here.
     *
     * @param asked the layer a configuration names
     * @return {@code asked}
     * @throws UnsupportedOperationException if it cannot run here (why, in one line)
     */
    public static IoLayer check(IoLayer asked) {
        String why = whyNot(asked);
        if (why != null) {
            throw new UnsupportedOperationException("socket I/O layer " + asked.option() + ": " + why);
        }
        return asked;
    }

    /** {@return the machine's choice: system calls where sockets' descriptors can be had, else NIO (said once)} */
    public static IoLayer auto() {
        String why = SocketDescriptor.why();
        if (why == null) {
            return IoLayer.SYSCALLS;
        }
        if (firstWordOnHiddenDescriptors()) {
            System.err.println("jwarp: socket I/O through NIO, not system calls, and the peer timeout by keepalive"
                    + " only: " + why);
        }
        return IoLayer.NIO;
    }

    /**
     * True the first time in this process only: whoever gets it prints the one line on sockets'
     * hidden descriptors.
     */
    public static boolean firstWordOnHiddenDescriptors() {
        return SAID_DESCRIPTORS_HIDDEN.compareAndSet(false, true);
    }

    /**
     * A new driver for one engine thread in {@code layer} (as {@link #check} or {@link #auto()} gave it).
     *
     * @param deregistrations a count that changes whenever memory the NIO layer's buffer views may
     *                        cover is released (the device's region deregistrations)
     */
    public static IoDriver open(IoLayer layer, LongSupplier deregistrations) {
        return switch (layer) {
            case SYSCALLS -> new EpollIoDriver();
            case URING -> new UringIoDriver(false);
            case URING_SQPOLL -> new UringIoDriver(true);
            case URING_DIRECT -> new UringDirectIoDriver();
            case NIO -> new NioIoDriver(deregistrations);
        };
    }
}
