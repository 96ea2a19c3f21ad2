package org.jwarp.engine.io;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import org.jwarp.sys.Downcalls;
import org.jwarp.sys.Errno;

/**
 * The system calls of a {@link Uring}: {@code io_uring_setup} and {@code io_uring_enter} by number
 * through libc's {@code syscall()} (no liburing), and the {@code mmap}, {@code munmap} and
 * {@code close} of its rings and descriptor. Linux x86-64 and aarch64 (the numbers are the same).
 */
final class UringSyscalls {

    private static final long SYS_IO_URING_SETUP = 425;
    private static final long SYS_IO_URING_ENTER = 426;
    private static final int PROT_READ_WRITE = 0x1 | 0x2;
    private static final int MAP_SHARED_POPULATE = 0x01 | 0x8000;

    private static final MethodHandle SETUP;
    private static final MethodHandle ENTER;
    /** io_uring_enter without errno capture: the per-call path. */
    private static final MethodHandle ENTER_QUICK;
    /** io_uring_enter with four segments after its arguments, whose scopes the call holds ({@link ScopeHolds}). */
    private static final MethodHandle ENTER_HOLDING;
    private static final MethodHandle MMAP;
    private static final MethodHandle MUNMAP;
    private static final MethodHandle CLOSE;
    /** Why io_uring's calls cannot be made here; null if they can. */
    static final String WHY_NOT;

    static {
        MethodHandle setup = null;
        MethodHandle enter = null;
        MethodHandle quick = null;
        MethodHandle holding = null;
        String why = null;
        try {
            setup = Downcalls.require("syscall", FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, ADDRESS),
                    Linker.Option.firstVariadicArg(1));
            FunctionDescriptor enterDescriptor = FunctionDescriptor.of(JAVA_LONG, JAVA_LONG, JAVA_INT, JAVA_INT,
                    JAVA_INT, JAVA_INT, ADDRESS, JAVA_LONG);
            enter = Downcalls.require("syscall", enterDescriptor, Linker.Option.firstVariadicArg(1));
            quick = Downcalls.requireWithoutErrno("syscall", enterDescriptor, Linker.Option.firstVariadicArg(1));
            holding = Downcalls.requireWithoutErrno("syscall", enterDescriptor.appendArgumentLayouts(ADDRESS, ADDRESS,
                    ADDRESS, ADDRESS), Linker.Option.firstVariadicArg(1));
        } catch (RuntimeException e) {
            why = "no FFM access to syscall(): " + e.getMessage();
        }
        SETUP = setup;
        ENTER = enter;
        ENTER_QUICK = quick;
        ENTER_HOLDING = holding;
        MMAP = Downcalls.require("mmap", FunctionDescriptor.of(ADDRESS, ADDRESS, JAVA_LONG, JAVA_INT, JAVA_INT,
                JAVA_INT, JAVA_LONG));
        MUNMAP = Downcalls.require("munmap", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG));
        CLOSE = Downcalls.require("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
        WHY_NOT = why;
    }

    private UringSyscalls() {
    }

    /** {@code io_uring_setup(entries, params)}: the ring's descriptor, or -1 with errno in {@code capture}. */
    static long setup(MemorySegment capture, int entries, MemorySegment params) {
        try {
            return (long) SETUP.invokeExact(capture, SYS_IO_URING_SETUP, entries, params);
        } catch (Throwable t) {
            throw new IllegalStateException("io_uring_setup failed: " + t, t);
        }
    }

    /** {@code io_uring_enter} without errno capture: its result, negative if it failed. */
    static long enterQuick(int fd, int toSubmit, int minComplete, int flags) throws IOException {
        try {
            return (long) ENTER_QUICK.invokeExact(SYS_IO_URING_ENTER, fd, toSubmit, minComplete, flags,
                    MemorySegment.NULL, 0L);
        } catch (Throwable t) {
            throw new IOException("io_uring_enter failed: " + t, t);
        }
    }

    /** {@code io_uring_enter} with errno captured in {@code capture}. */
    static long enterCapturing(MemorySegment capture, int fd, int toSubmit, int minComplete, int flags)
            throws IOException {
        try {
            return (long) ENTER.invokeExact(capture, SYS_IO_URING_ENTER, fd, toSubmit, minComplete, flags,
                    MemorySegment.NULL, 0L);
        } catch (Throwable t) {
            throw new IOException("io_uring_enter failed: " + t, t);
        }
    }

    /**
     * {@code io_uring_enter} holding the scopes in {@code holds} for the call.
     *
     * @throws IllegalStateException a held scope was closed: the call was not made
     */
    static long enterHolding(int fd, int toSubmit, int minComplete, int flags, ScopeHolds holds) throws IOException {
        try {
            return (long) ENTER_HOLDING.invokeExact(SYS_IO_URING_ENTER, fd, toSubmit, minComplete, flags,
                    MemorySegment.NULL, 0L, holds.get(0), holds.get(1), holds.get(2), holds.get(3));
        } catch (IllegalStateException closed) {
            throw closed;
        } catch (Throwable t) {
            throw new IOException("io_uring_enter failed: " + t, t);
        }
    }

    /** Maps {@code bytes} of ring {@code fd} at {@code offset}. */
    @SuppressWarnings("restricted")
    static MemorySegment map(MemorySegment capture, int fd, long bytes, long offset) throws IOException {
        MemorySegment m;
        try {
            m = (MemorySegment) MMAP.invokeExact(capture, MemorySegment.NULL, bytes, PROT_READ_WRITE,
                    MAP_SHARED_POPULATE, fd, offset);
        } catch (Throwable t) {
            throw new IOException("mmap of an io_uring failed: " + t, t);
        }
        if (m.address() == -1L) {
            throw new IOException("mmap of an io_uring: " + Errno.describe(Downcalls.errno(capture)));
        }
        return m.reinterpret(bytes);
    }

    static void munmap(MemorySegment capture, MemorySegment m, long bytes) {
        try {
            int unused = (int) MUNMAP.invokeExact(capture, m, bytes);
        } catch (Throwable t) {
            throw new IllegalStateException("munmap of an io_uring failed", t);
        }
    }

    static void close(MemorySegment capture, int fd) {
        try {
            int unused = (int) CLOSE.invokeExact(capture, fd);
        } catch (Throwable t) {
            throw new IllegalStateException("close of an io_uring failed", t);
        }
    }
}
