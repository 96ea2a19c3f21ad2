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
 * the connection keeps ({@link MsgHeader}); a call of one piece uses {@code send} and
 * {@code read}, which skip the kernel's import of a msghdr and an iovec array. No ByteBuffer views,
 * no per-call JDK bookkeeping, and any native segment can be a piece, however large.
 *
 * <p>A piece whose memory was unmapped under the call (an application that freed a region with a
 * request in flight) makes the kernel answer EFAULT, which fails this connection only.
 */
public final class SyscallSocketIo implements SocketIo {

    private static final MethodHandle SENDMSG = Downcalls.require("sendmsg",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT));
    private static final MethodHandle READV = Downcalls.require("readv",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, ADDRESS, JAVA_INT));
    /** One piece: the plain calls, which skip the kernel's msghdr and iovec import. */
    private static final MethodHandle SEND = Downcalls.require("send",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG, JAVA_INT));
    private static final MethodHandle READ = Downcalls.require("read",
            FunctionDescriptor.of(JAVA_LONG, JAVA_INT, JAVA_LONG, JAVA_LONG));

    private static final int MSG_DONTWAIT = 0x40;
    private static final int MSG_NOSIGNAL = 0x4000;
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
            long w = (long) SENDMSG.invokeExact(capture, -1, msg.msghdr(), MSG_NOSIGNAL | MSG_DONTWAIT);
            long r = (long) READV.invokeExact(capture, -1, msg.iov(), 0);
            long w1 = (long) SEND.invokeExact(capture, -1, 0L, 0L, MSG_NOSIGNAL | MSG_DONTWAIT);
            long r1 = (long) READ.invokeExact(capture, -1, 0L, 0L);
            if (w >= 0 || r >= 0 || w1 >= 0 || r1 >= 0 || Downcalls.errno(capture) != Errno.EBADF) {
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
        int pieces = v.pieces();
        if (pieces == 0) {
            return 0;
        }
        int i = v.start();
        long r = pieces == 1 ? read(v.segment(i).address() + v.offset(i), v.length(i)) : readv(v);
        if (r < 0) {
            int errno = Downcalls.errno(capture);
            if (errno == Errno.EAGAIN) {
                return 0;
            }
            throw failure("readv", errno);
        }
        return r == 0 ? -1 : r;     // 0 with room to read is the peer's FIN
    }

    // One downcall per method: each compiles small enough for the JIT to remove the capture
    // state's per-call slice.

    private long send(long address, long length) throws IOException {
        try {
            long w;
            do {
                w = (long) SEND.invokeExact(capture, fd, address, length, MSG_NOSIGNAL | MSG_DONTWAIT);
            } while (w < 0 && Downcalls.errno(capture) == Errno.EINTR);
            return w;
        } catch (Throwable t) {
            throw new IOException("send failed: " + t, t);
        }
    }

    private long sendmsg(IoVector v) throws IOException {
        header.fill(v);
        try {
            long w;
            do {
                w = (long) SENDMSG.invokeExact(capture, fd, header.msghdr(), MSG_NOSIGNAL | MSG_DONTWAIT);
            } while (w < 0 && Downcalls.errno(capture) == Errno.EINTR);
            return w;
        } catch (Throwable t) {
            throw new IOException("sendmsg failed: " + t, t);
        }
    }

    private long read(long address, long length) throws IOException {
        try {
            long r;
            do {
                r = (long) READ.invokeExact(capture, fd, address, length);
            } while (r < 0 && Downcalls.errno(capture) == Errno.EINTR);
            return r;
        } catch (Throwable t) {
            throw new IOException("read failed: " + t, t);
        }
    }

    private long readv(IoVector v) throws IOException {
        int n = header.fill(v);
        try {
            long r;
            do {
                r = (long) READV.invokeExact(capture, fd, header.iov(), n);
            } while (r < 0 && Downcalls.errno(capture) == Errno.EINTR);
            return r;
        } catch (Throwable t) {
            throw new IOException("readv failed: " + t, t);
        }
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
