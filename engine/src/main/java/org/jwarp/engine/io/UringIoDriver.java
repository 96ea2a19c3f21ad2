package org.jwarp.engine.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.SocketChannel;

/**
 * {@link IoDriver} through io_uring: readiness and sleep as {@link EpollIoDriver} has them, bytes
 * by {@link UringSocketIo} on this thread's {@link Uring} (made on first use: an SQPOLL ring
 * starts a kernel thread), and {@link #flush} submits the duty cycle's queued writes in one
 * {@code io_uring_enter}. Calls with a piece in application memory are the syscalls layer's
 * held calls, as design.md ("Memory an application frees") requires.
 */
public final class UringIoDriver extends EpollIoDriver {

    /** Entries of a ring: a duty cycle's batch at most. */
    static final int RING_ENTRIES = 64;
    /** How long an SQPOLL kernel thread polls without work before it sleeps. */
    static final int SQPOLL_IDLE_MILLIS = 10;

    private final boolean sqpoll;
    private Uring ring;

    public UringIoDriver(boolean sqpoll) {
        this.sqpoll = sqpoll;
    }

    @Override
    public String layer() {
        return sqpoll ? "uring-sqpoll" : "uring";
    }

    @Override
    public SocketIo open(SocketChannel channel, int capacity) {
        return new UringSocketIo(channel, capacity, this::ring, layer());
    }

    /** This thread's ring, made on first use (the factory checked that rings can be made). */
    Uring ring() {
        if (ring == null) {
            try {
                ring = new Uring(RING_ENTRIES, sqpoll, SQPOLL_IDLE_MILLIS);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
        return ring;
    }

    @Override
    public void flush() throws IOException {
        if (ring != null) {
            ring.flush();
        }
    }

    @Override
    public void close() {
        if (ring != null) {
            ring.close();
            ring = null;
        }
        super.close();
    }
}
