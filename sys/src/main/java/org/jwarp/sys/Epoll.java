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
 * One Linux epoll instance through the FFM API ({@code epoll_create1}, {@code epoll_ctl},
 * {@code epoll_pwait2} where libc has it, else {@code epoll_wait}), level-triggered as NIO's
 * selector is. Each registered descriptor carries a 64-bit token that comes back with its events.
 * The event array is the caller's ({@link #events}), so that a wait allocates nothing and two
 * threads may wait with arrays of their own.
 *
 * <p>{@code struct epoll_event} is packed on x86-64 (12 bytes: the 32-bit events, then the 64-bit
 * data) and naturally aligned elsewhere (16 bytes).
 */
public final class Epoll implements AutoCloseable {

    public static final int EPOLLIN = 0x001;
    public static final int EPOLLOUT = 0x004;
    public static final int EPOLLERR = 0x008;
    public static final int EPOLLHUP = 0x010;
    public static final int EPOLLRDHUP = 0x2000;

    private static final int EPOLL_CLOEXEC = 0x80000;
    private static final int EPOLL_CTL_ADD = 1;
    private static final int EPOLL_CTL_DEL = 2;
    private static final int EPOLL_CTL_MOD = 3;

    private static final boolean PACKED = System.getProperty("os.arch").matches("amd64|x86_64");
    /** Bytes of one {@code struct epoll_event}. */
    public static final long EVENT_BYTES = PACKED ? 12 : 16;
    private static final long DATA_OFFSET = PACKED ? 4 : 8;
    private static final java.lang.foreign.ValueLayout.OfLong DATA = JAVA_LONG.withByteAlignment(4);

    private static final MethodHandle CREATE = Downcalls.require("epoll_create1",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    private static final MethodHandle CTL = Downcalls.require("epoll_ctl",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS));
    /** The waits without errno capture (the per-cycle path); a failure is repeated with it. */
    private static final MethodHandle WAIT = Downcalls.requireWithoutErrno("epoll_wait",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
    private static final MethodHandle WAIT_CAPTURING = Downcalls.require("epoll_wait",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, JAVA_INT));
    /** {@code epoll_pwait2(fd, events, max, const struct timespec *, const sigset_t *)}: nanosecond timeouts. */
    private static final MethodHandle PWAIT2 = Downcalls.findWithoutErrno("epoll_pwait2",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT, ADDRESS, ADDRESS)).orElse(null);
    private static final MethodHandle CLOSE = Downcalls.require("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));

    private final Arena arena = Arena.ofShared();
    private final MemorySegment capture = Downcalls.captureBuffer(arena);
    private final MemorySegment ctlEvent = arena.allocate(16, 8);
    private final int fd;
    private final boolean pwait2;
    private volatile boolean closed;

    /** @throws IOException epoll_create1 failed (the reason in the message) */
    public Epoll() throws IOException {
        int r;
        try {
            r = (int) CREATE.invokeExact(capture, EPOLL_CLOEXEC);
        } catch (Throwable t) {
            throw new IOException("epoll_create1 failed: " + t, t);
        }
        if (r < 0) {
            throw new IOException("epoll_create1: " + Errno.describe(Downcalls.errno(capture)));
        }
        fd = r;
        pwait2 = PWAIT2 != null && probePwait2();
    }

    /** Whether the kernel has epoll_pwait2 (5.11): libc may have the wrapper on an older kernel. */
    private boolean probePwait2() {
        try (Arena a = Arena.ofConfined()) {
            MemorySegment ts = a.allocate(16, 8);
            MemorySegment ev = a.allocate(EVENT_BYTES * 1, 8);
            int r = (int) PWAIT2.invokeExact(fd, ev, 1, ts, MemorySegment.NULL);
            return r >= 0 || ErrnoHint.read() != Errno.ENOSYS;
        } catch (Throwable t) {
            return false;
        }
    }

    /** Whether waits take nanoseconds ({@code epoll_pwait2}); else milliseconds. */
    public boolean nanosecondWaits() {
        return pwait2;
    }

    /** The epoll descriptor itself. */
    public int fd() {
        return fd;
    }

    /** An event array for {@code n} events, in {@code arena}. */
    public static MemorySegment events(Arena arena, int n) {
        return arena.allocate(EVENT_BYTES * n, 8);
    }

    /** Event {@code i}'s bits in {@code events}. */
    public static int eventsOf(MemorySegment events, int i) {
        return events.get(JAVA_INT, i * EVENT_BYTES);
    }

    /** Event {@code i}'s token in {@code events}. */
    public static long tokenOf(MemorySegment events, int i) {
        return events.get(DATA, i * EVENT_BYTES + DATA_OFFSET);
    }

    /** Watches {@code target} for {@code events} (EPOLL* bits), reporting {@code token}. */
    public void add(int target, int events, long token) throws IOException {
        ctl(EPOLL_CTL_ADD, target, events, token, "add");
    }

    /** Changes what {@code target} is watched for. */
    public void modify(int target, int events, long token) throws IOException {
        ctl(EPOLL_CTL_MOD, target, events, token, "modify");
    }

    /** Stops watching {@code target}; one already gone (closed, EBADF or ENOENT) is no failure. */
    public void remove(int target) throws IOException {
        int errno = ctlErrno(EPOLL_CTL_DEL, target, 0, 0);
        if (errno != 0 && errno != Errno.EBADF && errno != Errno.ENOENT) {
            throw new IOException("epoll_ctl remove " + target + ": " + Errno.describe(errno));
        }
    }

    private void ctl(int op, int target, int events, long token, String what) throws IOException {
        int errno = ctlErrno(op, target, events, token);
        if (errno != 0) {
            throw new IOException("epoll_ctl " + what + " " + target + ": " + Errno.describe(errno));
        }
    }

    /** Registration calls come from the owning thread only, which owns {@link #ctlEvent}. */
    private int ctlErrno(int op, int target, int events, long token) throws IOException {
        ctlEvent.set(JAVA_INT, 0, events);
        ctlEvent.set(DATA, DATA_OFFSET, token);
        try {
            int r = (int) CTL.invokeExact(capture, fd, op, target, ctlEvent);
            return r < 0 ? Downcalls.errno(capture) : 0;
        } catch (Throwable t) {
            throw new IOException("epoll_ctl failed: " + t, t);
        }
    }

    /**
     * Waits at most {@code timeoutNanos} (0: not at all; negative: without end) for events, up to
     * {@code max} of them into {@code events}; {@code timespec} (16 bytes, the caller's) carries a
     * nanosecond timeout where the kernel takes one, else it is rounded up to milliseconds.
     *
     * @return events written; 0 on timeout or when a signal interrupted the wait
     */
    public int wait(MemorySegment events, int max, long timeoutNanos, MemorySegment timespec) throws IOException {
        int r;
        try {
            if (pwait2 && timeoutNanos > 0) {
                timespec.set(JAVA_LONG, 0, timeoutNanos / 1_000_000_000L);
                timespec.set(JAVA_LONG, 8, timeoutNanos % 1_000_000_000L);
                r = (int) PWAIT2.invokeExact(fd, events, max, timespec, MemorySegment.NULL);
            } else {
                int millis = timeoutNanos < 0 ? -1 : (int) Math.min(Integer.MAX_VALUE, (timeoutNanos + 999_999) / 1_000_000);
                r = (int) WAIT.invokeExact(fd, events, max, millis);
            }
        } catch (Throwable t) {
            throw new IOException("epoll_wait failed: " + t, t);
        }
        if (r >= 0) {
            return r;
        }
        int errno = ErrnoHint.read();
        if (errno == Errno.EINTR) {
            return 0;
        }
        // the hint did not settle it: once more with errno captured and no wait
        try (Arena a = Arena.ofConfined()) {
            MemorySegment c = Downcalls.captureBuffer(a);
            r = (int) WAIT_CAPTURING.invokeExact(c, fd, events, max, 0);
            if (r >= 0) {
                return r;
            }
            errno = Downcalls.errno(c);
        } catch (Throwable t) {
            throw new IOException("epoll_wait failed: " + t, t);
        }
        if (errno == Errno.EINTR) {
            return 0;
        }
        throw new IOException("epoll_wait: " + Errno.describe(errno));
    }

    /** Closes the epoll descriptor (once). */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        try {
            int unused = (int) CLOSE.invokeExact(capture, fd);
        } catch (Throwable t) {
            throw new IllegalStateException("close of an epoll descriptor failed", t);
        }
        arena.close();
    }
}
