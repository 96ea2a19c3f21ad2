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
import org.jwarp.sys.ErrnoHint;

/**
 * {@link SocketIo} by system calls on the socket's file descriptor through the FFM API:
 * {@code sendmsg} (with {@code MSG_NOSIGNAL}: a peer that closed gives EPIPE, not a signal) and
 * {@code readv}, the I/O vector written straight from the pieces' addresses into native memory
 * the connection keeps ({@link MsgHeader}); a call of one piece uses {@code send} and
 * {@code read}, which skip the kernel's import of a msghdr and an iovec array. No ByteBuffer views,
 * no per-call JDK bookkeeping, and any native segment can be a piece, however large.
 *
 * <p>The calls are made without errno capture, whose per-call object the JIT does not always
 * remove: a failed call's errno is read as a hint ({@link ErrnoHint}). A hint of EAGAIN is taken
 * as "try again", which is harmless even where the hint is wrong: a socket keeps what failed the
 * call (a reset reads as the end of the stream next, a broken pipe fails the next send, a bad
 * address is bad again) and stays ready for the engine's selector, so the next call reports it.
 * Any other failure is repeated with errno captured, which gives the errno to act on; where the
 * repeat of a read finds the end of the stream, the first call took the socket's error (a reset)
 * and its hint names it.
 *
 * <p>A piece whose memory was unmapped under the call (an application that freed a region with a
 * request in flight) makes the kernel answer EFAULT, which fails this connection only.
 */
public final class SyscallSocketIo implements SocketIo {

    private static final FunctionDescriptor SENDMSG_TYPE = FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT);
    private static final FunctionDescriptor READV_TYPE = FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT);
    /** One piece: the plain calls, which skip the kernel's msghdr and iovec import. */
    private static final FunctionDescriptor SEND_TYPE =
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT);
    private static final FunctionDescriptor READ_TYPE = FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG);

    private static final MethodHandle SENDMSG = Downcalls.requireWithoutErrno("sendmsg", SENDMSG_TYPE);
    private static final MethodHandle READV = Downcalls.requireWithoutErrno("readv", READV_TYPE);
    private static final MethodHandle SEND = Downcalls.requireWithoutErrno("send", SEND_TYPE);
    private static final MethodHandle READ = Downcalls.requireWithoutErrno("read", READ_TYPE);
    // the same calls with errno captured: a failure the hint does not settle is repeated through these
    private static final MethodHandle SENDMSG_CAPTURING = Downcalls.require("sendmsg", SENDMSG_TYPE);
    private static final MethodHandle READV_CAPTURING = Downcalls.require("readv", READV_TYPE);
    private static final MethodHandle SEND_CAPTURING = Downcalls.require("send", SEND_TYPE);
    private static final MethodHandle READ_CAPTURING = Downcalls.require("read", READ_TYPE);

    private static final int MSG_DONTWAIT = 0x40;
    private static final int MSG_NOSIGNAL = 0x4000;
    private static final int SEND_FLAGS = MSG_NOSIGNAL | MSG_DONTWAIT;
    private static final int ECONNRESET = 104;
    private static final int EPIPE = 32;

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
            MsgHeader msg = new MsgHeader(arena, 1);
            ErrnoHint.read();
            long quick = (long) SENDMSG.invokeExact(-1, msg.msghdr(), SEND_FLAGS)
                    & (long) READV.invokeExact(-1, msg.iov(), 0)
                    & (long) SEND.invokeExact(-1, 0L, 0L, SEND_FLAGS)
                    & (long) READ.invokeExact(-1, 0L, 0L);
            long w = (long) SENDMSG_CAPTURING.invokeExact(capture, -1, msg.msghdr(), SEND_FLAGS);
            long r = (long) READV_CAPTURING.invokeExact(capture, -1, msg.iov(), 0);
            long w1 = (long) SEND_CAPTURING.invokeExact(capture, -1, 0L, 0L, SEND_FLAGS);
            long r1 = (long) READ_CAPTURING.invokeExact(capture, -1, 0L, 0L);
            if (quick >= 0 || w >= 0 || r >= 0 || w1 >= 0 || r1 >= 0 || Downcalls.errno(capture) != Errno.EBADF) {
                throw new IllegalStateException("sendmsg/readv/send/read on no descriptor did not fail with EBADF");
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("linking sendmsg/readv failed", t);
        }
    }

    private final int fd;
    private final MsgHeader header;
    private final MemorySegment capture;
    /** The errno of this object's last failed call, for {@link #write} and {@link #read} to act on. */
    private int errno;

    /**
     * @param capacity the most pieces a call may have
     * @throws UnsupportedOperationException if the descriptor cannot be had ({@link SocketDescriptor#why()})
     */
    public SyscallSocketIo(SocketChannel channel, int capacity) {
        this.fd = SocketDescriptor.of(channel);
        Arena arena = Arena.ofAuto();   // connections move between engine threads; freed with this object
        this.header = new MsgHeader(arena, capacity);
        this.capture = Downcalls.captureBuffer(arena);
    }

    @Override
    public long write(IoVector v) throws IOException {
        int pieces = v.pieces();
        if (pieces == 0) {
            return 0;
        }
        int i = v.start();
        long w = pieces == 1 ? send(v.segment(i).address() + v.offset(i), v.length(i)) : sendmsg(v);
        if (w < 0) {
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
        int pieces = v.pieces();
        if (pieces == 0) {
            return 0;
        }
        int i = v.start();
        long r = pieces == 1 ? read(v.segment(i).address() + v.offset(i), v.length(i)) : readv(v);
        if (r < 0) {
            if (errno == Errno.EAGAIN) {
                return 0;
            }
            throw failure("readv", errno);
        }
        return r == 0 ? -1 : r;     // 0 with room to read is the peer's FIN
    }

    // One downcall per method, each small enough to compile on its own. Each answers the call's
    // result; a failure leaves its errno in the field.

    private long send(long address, long length) throws IOException {
        try {
            long w = (long) SEND.invokeExact(fd, address, length, SEND_FLAGS);
            if (w >= 0 || wouldBlock()) {
                return w;
            }
            do {
                w = (long) SEND_CAPTURING.invokeExact(capture, fd, address, length, SEND_FLAGS);
            } while (w < 0 && capturedErrno() == Errno.EINTR);
            return w;
        } catch (Throwable t) {
            throw new IOException("send failed: " + t, t);
        }
    }

    private long sendmsg(IoVector v) throws IOException {
        header.fill(v);
        try {
            long w = (long) SENDMSG.invokeExact(fd, header.msghdr(), SEND_FLAGS);
            if (w >= 0 || wouldBlock()) {
                return w;
            }
            do {
                w = (long) SENDMSG_CAPTURING.invokeExact(capture, fd, header.msghdr(), SEND_FLAGS);
            } while (w < 0 && capturedErrno() == Errno.EINTR);
            return w;
        } catch (Throwable t) {
            throw new IOException("sendmsg failed: " + t, t);
        }
    }

    private long read(long address, long length) throws IOException {
        try {
            long r = (long) READ.invokeExact(fd, address, length);
            if (r >= 0 || wouldBlock()) {
                return r;
            }
            int first = errno;
            do {
                r = (long) READ_CAPTURING.invokeExact(capture, fd, address, length);
            } while (r < 0 && capturedErrno() == Errno.EINTR);
            return endOrFirstFailure(r, first);
        } catch (Throwable t) {
            throw new IOException("read failed: " + t, t);
        }
    }

    private long readv(IoVector v) throws IOException {
        int n = header.fill(v);
        try {
            long r = (long) READV.invokeExact(fd, header.iov(), n);
            if (r >= 0 || wouldBlock()) {
                return r;
            }
            int first = errno;
            do {
                r = (long) READV_CAPTURING.invokeExact(capture, fd, header.iov(), n);
            } while (r < 0 && capturedErrno() == Errno.EINTR);
            return endOrFirstFailure(r, first);
        } catch (Throwable t) {
            throw new IOException("readv failed: " + t, t);
        }
    }

    /**
     * After a quick call failed: whether the errno hint says it would have blocked (see the class
     * comment). The hint stays in the field either way.
     */
    private boolean wouldBlock() {
        errno = ErrnoHint.read();
        return errno == Errno.EAGAIN;
    }

    /**
     * A repeated read that found the end of the stream after a first one failed: the first
     * failure (a reset, say) took the socket's error, and the kernel reports the end of the
     * stream after it; the first call's errno, read as a hint, names what happened.
     */
    private long endOrFirstFailure(long r, int first) {
        if (r == 0 && first != Errno.EINTR && first != ErrnoHint.UNKNOWN) {
            errno = first;
            return -1;
        }
        return r;
    }

    private int capturedErrno() {
        errno = Downcalls.errno(capture);
        return errno;
    }

    @Override
    public boolean canAddress(MemorySegment segment) {
        return segment.isNative();
    }

    @Override
    public String layer() {
        return "syscalls";
    }

    static IOException failure(String call, int errno) {
        String what = switch (errno) {
            case ECONNRESET -> "Connection reset by peer (errno 104)";
            case EPIPE -> "Broken pipe (errno 32)";
            default -> Errno.describe(errno);
        };
        return new IOException(call + ": " + what);
    }
}
