package org.jwarp.engine.io;

import java.util.Locale;

/**
 * The socket I/O layers an {@link IoDriver} can be made in ({@link IoDrivers#open}). A
 * configuration may leave the choice to the machine; what it asks for is resolved to one of these
 * by {@link IoDrivers#auto()} or checked by {@link IoDrivers#check}.
 */
public enum IoLayer {
    /** {@code SocketChannel} calls on buffer views of the memory; readiness from a {@code Selector}. */
    NIO,
    /** {@code sendmsg}/{@code readv} on the socket's descriptor through the FFM API; readiness from epoll. */
    SYSCALLS,
    /** io_uring submissions on one ring per engine thread; readiness from epoll. */
    URING,
    /** {@link #URING} with a kernel thread polling the submission queue. */
    URING_SQPOLL,
    /**
     * io_uring with every connection's socket a direct descriptor (an entry in a ring's file
     * table, not a process descriptor): readiness from polls on the rings
     * ({@link UringDirectIoDriver}); connections beyond the open-file limit.
     */
    URING_DIRECT;

    /** {@return the layer's name on the command line: nio, syscalls, uring, uring-sqpoll, uring-direct} */
    public String option() {
        return name().toLowerCase(Locale.ROOT).replace('_', '-');
    }
}
