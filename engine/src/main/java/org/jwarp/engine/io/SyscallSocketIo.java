package org.jwarp.engine.io;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.nio.channels.SocketChannel;
import org.jwarp.sys.Downcalls;
import org.jwarp.sys.Errno;

/**
 * {@link SocketIo} by system calls on the socket's file descriptor through the FFM API:
 * {@code sendmsg} (with {@code MSG_NOSIGNAL}: a peer that closed gives EPIPE, not a signal) and
 * {@code readv}, the I/O vector written straight from the pieces' addresses into native memory
 * the connection keeps. No ByteBuffer views, no per-call JDK bookkeeping, and any native segment
 * can be a piece, however large.
 *
 * <p>A piece whose memory was unmapped under the call (an application that freed a region with a
 * request in flight) makes the kernel answer EFAULT, which fails this connection only.
 */
public final class SyscallSocketIo implements SocketIo {

    private static final MethodHandle SENDMSG = Downcalls.require("sendmsg",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle READV = Downcalls.require("readv",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT));

    private static final int MSG_DONTWAIT = 0x40;
    private static final int MSG_NOSIGNAL = 0x4000;
    private static final int ECONNRESET = 104;
    private static final int EPIPE = 32;
    /** struct iovec: void *iov_base; size_t iov_len. */
    private static final long IOVEC = 16;
    /** struct msghdr (x86-64 and aarch64 Linux): name, namelen, iov, iovlen, control, controllen, flags. */
    private static final long MSGHDR = 56;
    private static final long MSG_IOV = 16;
    private static final long MSG_IOVLEN = 24;

    static {
        linkNow();
    }

    /**
     * Calls each handle once on no descriptor (EBADF), so that the JDK spins the call's code now and
     * not in the middle of a connection's first transfers.
     */
    private static void linkNow() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment capture = Downcalls.captureBuffer(arena);
            MemorySegment msg = arena.allocate(MSGHDR, 8);
            long w = (long) SENDMSG.invokeExact(capture, -1, msg, MSG_NOSIGNAL | MSG_DONTWAIT);
            long r = (long) READV.invokeExact(capture, -1, msg, 0);
            if (w >= 0 || r >= 0 || Downcalls.errno(capture) != Errno.EBADF) {
                throw new IllegalStateException("sendmsg/readv on no descriptor did not fail with EBADF");
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("linking sendmsg/readv failed", t);
        }
    }

    private final int fd;
    private final MemorySegment iov;
    private final MemorySegment msghdr;
    private final MemorySegment capture;
    private final int capacity;

    /**
     * @param capacity the most pieces a call may have
     * @throws UnsupportedOperationException if the descriptor cannot be had ({@link SocketDescriptor#why()})
     */
    public SyscallSocketIo(SocketChannel channel, int capacity) {
        this.fd = SocketDescriptor.of(channel);
        this.capacity = capacity;
        Arena arena = Arena.ofAuto();   // connections move between engine threads; freed with this object
        this.iov = arena.allocate(IOVEC * capacity, 8);
        this.msghdr = arena.allocate(MSGHDR, 8);
        this.capture = Downcalls.captureBuffer(arena);
        msghdr.set(ADDRESS, MSG_IOV, iov);
    }

    @Override
    public long write(IoVector v) throws IOException {
        int n = fill(v);
        if (n == 0) {
            return 0;
        }
        msghdr.set(JAVA_LONG, MSG_IOVLEN, n);
        long w;
        try {
            do {
                w = (long) SENDMSG.invokeExact(capture, fd, msghdr, MSG_NOSIGNAL | MSG_DONTWAIT);
            } while (w < 0 && Downcalls.errno(capture) == Errno.EINTR);
        } catch (Throwable t) {
            throw new IOException("sendmsg failed: " + t, t);
        }
        if (w < 0) {
            int errno = Downcalls.errno(capture);
            if (errno == Errno.EAGAIN) {
                return 0;
            }
            throw failure("sendmsg", errno);
        }
        v.advance(w);
        return w;
    }

    @Override
    public long read(IoVector v) throws IOException {
        int n = fill(v);
        if (n == 0) {
            return 0;
        }
        long r;
        try {
            do {
                r = (long) READV.invokeExact(capture, fd, iov, n);
            } while (r < 0 && Downcalls.errno(capture) == Errno.EINTR);
        } catch (Throwable t) {
            throw new IOException("readv failed: " + t, t);
        }
        if (r < 0) {
            int errno = Downcalls.errno(capture);
            if (errno == Errno.EAGAIN) {
                return 0;
            }
            throw failure("readv", errno);
        }
        return r == 0 ? -1 : r;     // readv's 0 with room to read is the peer's FIN
    }

    @Override
    public boolean canAddress(MemorySegment segment) {
        return segment.isNative();
    }

    @Override
    public String layer() {
        return "syscalls";
    }

    private int fill(IoVector v) {
        int n = 0;
        for (int i = v.start(); i < v.end() && n < capacity; i++, n++) {
            long at = n * IOVEC;
            iov.set(JAVA_LONG, at, v.segment(i).address() + v.offset(i));
            iov.set(JAVA_LONG, at + 8, v.length(i));
        }
        return n;
    }

    private static IOException failure(String call, int errno) {
        String what = switch (errno) {
            case ECONNRESET -> "Connection reset by peer (errno 104)";
            case EPIPE -> "Broken pipe (errno 32)";
            default -> Errno.describe(errno);
        };
        return new IOException(call + ": " + what);
    }
}
