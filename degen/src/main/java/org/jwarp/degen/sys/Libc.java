package org.jwarp.degen.sys;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import org.jwarp.sys.Downcalls;
import org.jwarp.sys.Errno;

/**
 * The few libc calls degen needs, as FFM downcalls (no native code to build or install). Every
 * call that can fail captures errno; an instance owns its capture buffer, so one instance belongs
 * to one thread and its calls allocate nothing.
 *
 * <p>{@code read} and {@code write} take the buffer as a raw address ({@code long}) rather than a
 * {@code MemorySegment}: the router passes {@code ring.address() + offset}, which avoids creating
 * a slice object per packet. On the ABIs jwarp supports (x86_64, aarch64) a pointer argument is
 * passed exactly like a 64-bit integer.
 */
@SuppressWarnings("restricted") // native access is granted by the launcher and surefire (--enable-native-access)
public final class Libc {

    public static final int O_RDONLY = 0;
    public static final int O_RDWR = 2;
    public static final int O_NONBLOCK = 0x800;
    public static final int O_CLOEXEC = 0x80000;
    public static final int EINTR = 4;
    public static final int EAGAIN = 11;
    public static final short POLLIN = 1;
    public static final int CLONE_NEWNET = 0x40000000;
    public static final int PR_SET_TIMERSLACK = 29;
    public static final int SCHED_OTHER = 0;
    public static final int SCHED_FIFO = 1;

    private static final MethodHandle OPEN = downcall("open", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle IOCTL = downcall("ioctl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG, ADDRESS),
            Linker.Option.firstVariadicArg(2));
    private static final MethodHandle READ = downcall("read", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle WRITE = downcall("write", FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG));
    private static final MethodHandle CLOSE = downcall("close", FunctionDescriptor.of(JAVA_INT, JAVA_INT));
    private static final MethodHandle PPOLL = downcall("ppoll", FunctionDescriptor.of(JAVA_INT, ADDRESS, JAVA_LONG, ADDRESS, ADDRESS));
    private static final MethodHandle PRCTL = downcall("prctl", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_LONG),
            Linker.Option.firstVariadicArg(1));
    private static final MethodHandle SETNS = downcall("setns", FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT));
    private static final MethodHandle SCHED_SETSCHEDULER = downcall("sched_setscheduler",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, JAVA_INT, ADDRESS));
    /** geteuid cannot fail; its handle captures errno like the others, into a buffer of its own. */
    private static final MethodHandle GETEUID = downcall("geteuid", FunctionDescriptor.of(JAVA_INT));

    private final MemorySegment capture;

    /** A libc handle for the calling thread, with its errno buffer allocated in {@code arena}. */
    public Libc(Arena arena) {
        this.capture = Downcalls.captureBuffer(arena);
    }

    private static MethodHandle downcall(String name, FunctionDescriptor fd, Linker.Option... extra) {
        return Downcalls.require(name, fd, extra);
    }

    /** errno of the last failed call made through this instance. */
    public int errno() {
        return Downcalls.errno(capture);
    }

    public int open(MemorySegment path, int flags) {
        try {
            return (int) OPEN.invokeExact(capture, path, flags);
        } catch (Throwable t) {
            throw new AssertionError("open downcall failed", t);
        }
    }

    public int ioctl(int fd, long request, MemorySegment arg) {
        try {
            return (int) IOCTL.invokeExact(capture, fd, request, arg);
        } catch (Throwable t) {
            throw new AssertionError("ioctl downcall failed", t);
        }
    }

    /** read(2) into native memory at {@code address}; returns bytes read or -1 (see {@link #errno()}). */
    public long read(int fd, long address, long len) {
        try {
            return (long) READ.invokeExact(capture, fd, address, len);
        } catch (Throwable t) {
            throw new AssertionError("read downcall failed", t);
        }
    }

    /** write(2) from native memory at {@code address}; returns bytes written or -1. */
    public long write(int fd, long address, long len) {
        try {
            return (long) WRITE.invokeExact(capture, fd, address, len);
        } catch (Throwable t) {
            throw new AssertionError("write downcall failed", t);
        }
    }

    public int close(int fd) {
        try {
            return (int) CLOSE.invokeExact(capture, fd);
        } catch (Throwable t) {
            throw new AssertionError("close downcall failed", t);
        }
    }

    /** ppoll(2) with a timeout in {@code timespec} (null segment for infinite) and no signal mask change. */
    public int ppoll(MemorySegment pollfds, long nfds, MemorySegment timespec) {
        try {
            return (int) PPOLL.invokeExact(capture, pollfds, nfds, timespec, MemorySegment.NULL);
        } catch (Throwable t) {
            throw new AssertionError("ppoll downcall failed", t);
        }
    }

    public int prctl(int option, long arg) {
        try {
            return (int) PRCTL.invokeExact(capture, option, arg);
        } catch (Throwable t) {
            throw new AssertionError("prctl downcall failed", t);
        }
    }

    public int setns(int fd, int nstype) {
        try {
            return (int) SETNS.invokeExact(capture, fd, nstype);
        } catch (Throwable t) {
            throw new AssertionError("setns downcall failed", t);
        }
    }

    /**
     * Puts the calling thread under {@code policy} ({@link #SCHED_FIFO} 1..99, {@link #SCHED_OTHER}
     * 0) using {@code param} (4 bytes, preallocated by the caller); returns 0 or -1. On Linux, pid 0
     * in sched_setscheduler means the calling thread, not the whole process.
     */
    public int setScheduling(int policy, int priority, MemorySegment param) {
        param.set(JAVA_INT, 0, priority);
        try {
            return (int) SCHED_SETSCHEDULER.invokeExact(capture, 0, policy, param);
        } catch (Throwable t) {
            throw new AssertionError("sched_setscheduler downcall failed", t);
        }
    }

    public static int geteuid() {
        try (Arena arena = Arena.ofConfined()) {
            return (int) GETEUID.invokeExact(Downcalls.captureBuffer(arena));
        } catch (Throwable t) {
            throw new AssertionError("geteuid downcall failed", t);
        }
    }

    /** "Resource temporarily unavailable (errno 11)". */
    public static String describe(int errno) {
        return Errno.describe(errno);
    }
}
