package org.jwarp.sys;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;

/**
 * A non-blocking Linux eventfd through the FFM API: a counter any thread may {@link #signal},
 * readable while it is not zero, so that a thread waiting in epoll on it is woken. The one that
 * waits {@link #drain drains} it.
 */
public final class EventFd implements AutoCloseable {

    private static final int EFD_NONBLOCK = 0x800;
    private static final int EFD_CLOEXEC = 0x80000;

    private static final MethodHandle EVENTFD = Downcalls.require("eventfd",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
    private static final MethodHandle WRITE = Downcalls.requireWithoutErrno("write",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
    private static final MethodHandle READ = Downcalls.requireWithoutErrno("read",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_LONG));
    private static final MethodHandle CLOSE = Downcalls.require("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));

    private final Arena arena = Arena.ofAuto();
    private final MemorySegment capture = Downcalls.captureBuffer(arena);
    /** The 8 bytes a signal writes (1): read by every signalling thread, written by none. */
    private final MemorySegment plusOne;
    /** Where a drain reads the counter to: the waiting thread's only. */
    private final MemorySegment drained = arena.allocate(8, 8);
    private final int fd;
    private volatile boolean closed;
    /** Signals under way: close waits for them, so that no signal writes to a reused descriptor number. */
    private final java.util.concurrent.atomic.AtomicInteger signalling = new java.util.concurrent.atomic.AtomicInteger();

    /** @throws IOException eventfd failed (the reason in the message) */
    public EventFd() throws IOException {
        plusOne = arena.allocate(8, 8);
        plusOne.set(JAVA_LONG, 0, 1L);
        int r;
        try {
            r = (int) EVENTFD.invokeExact(capture, 0, EFD_NONBLOCK | EFD_CLOEXEC);
        } catch (Throwable t) {
            throw new IOException("eventfd failed: " + t, t);
        }
        if (r < 0) {
            throw new IOException("eventfd: " + Errno.describe(Downcalls.errno(capture)));
        }
        fd = r;
    }

    public int fd() {
        return fd;
    }

    /** Any thread: adds one to the counter, making the descriptor readable (a full counter already is). */
    public void signal() {
        signalling.getAndIncrement();
        try {
            if (!closed) {
                long unused = (long) WRITE.invokeExact(fd, plusOne, 8L);
            }
        } catch (Throwable t) {
            throw new IllegalStateException("write to an eventfd failed", t);
        } finally {
            signalling.getAndDecrement();
        }
    }

    /** The waiting thread: resets the counter to zero (not readable any more). */
    public void drain() {
        try {
            long unused = (long) READ.invokeExact(fd, drained, 8L);
        } catch (Throwable t) {
            throw new IllegalStateException("read of an eventfd failed", t);
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        while (signalling.get() != 0) {
            Thread.onSpinWait();                    // a signal that saw it open writes before the close
        }
        try {
            int unused = (int) CLOSE.invokeExact(capture, fd);
        } catch (Throwable t) {
            throw new IllegalStateException("close of an eventfd failed", t);
        }
    }
}
