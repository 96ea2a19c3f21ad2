package org.jwarp.engine.io;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
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
 * the connection keeps ({@link MsgHeader}); a call of one piece uses {@code sendto} and
 * {@code read}, which skip the kernel's import of a msghdr and an iovec array. No ByteBuffer views,
 * no per-call JDK bookkeeping, and any native segment can be a piece, however large.
 *
 * <p>The kernel touches the pieces' memory only inside the call, and the call holds their scopes
 * ({@link ScopeHolds}): each is made through libc's {@code syscall()}, whose trailing variadic
 * arguments after the call's own are segments of the pieces' scopes, which the callee ignores and
 * the FFM linker keeps acquired until it returns. An application's {@code Arena.close()} during the
 * call therefore fails and is retried after it, as with NIO's channel calls on a segment's buffer;
 * a scope closed before the call fails the call with the JDK's IllegalStateException ("Already
 * closed"), which the callers take for memory freed under a region. Memory is never written or
 * sent after it was freed.
 *
 * <p>The calls are made without errno capture, whose per-call object the JIT does not always
 * remove: a failed call's errno is read as a hint ({@link ErrnoHint}). A hint of EAGAIN is taken
 * as "try again", which is harmless even where the hint is wrong: a socket keeps what failed the
 * call (a reset reads as the end of the stream next, a broken pipe fails the next send, a bad
 * address is bad again) and stays ready for the engine's selector, so the next call reports it.
 * Any other failure is repeated with errno captured, which gives the errno to act on; where the
 * repeat of a read finds the end of the stream, the first call took the socket's error (a reset)
 * and its hint names it.
 */
public final class SyscallSocketIo implements SocketIo {

    /** Scopes one call holds: a call whose pieces span more stops short of the first piece that does not fit. */
    static final int HOLDS = 4;

    /** {@code long syscall(long number, ...)}: the call's six arguments, then the {@link #HOLDS} held segments. */
    private static final FunctionDescriptor SYSCALL_TYPE = FunctionDescriptor.of(JAVA_LONG, JAVA_LONG,
            JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, JAVA_LONG, ADDRESS, ADDRESS, ADDRESS, ADDRESS);

    private static final MethodHandle SYSCALL = Downcalls.requireWithoutErrno("syscall", SYSCALL_TYPE,
            Linker.Option.firstVariadicArg(1));
    // the same call with errno captured: a failure the hint does not settle is repeated through it
    private static final MethodHandle SYSCALL_CAPTURING = Downcalls.require("syscall", SYSCALL_TYPE,
            Linker.Option.firstVariadicArg(1));

    /** System call numbers: x86-64's table, or the generic one of aarch64; none elsewhere (-1). */
    private static final boolean X86_64 = System.getProperty("os.arch").matches("amd64|x86_64");
    private static final boolean AARCH64 = System.getProperty("os.arch").equals("aarch64");
    private static final long SYS_READ = X86_64 ? 0 : AARCH64 ? 63 : -1;
    private static final long SYS_READV = X86_64 ? 19 : AARCH64 ? 65 : -1;
    private static final long SYS_SENDTO = X86_64 ? 44 : AARCH64 ? 206 : -1;
    private static final long SYS_SENDMSG = X86_64 ? 46 : AARCH64 ? 211 : -1;

    private static final int MSG_DONTWAIT = 0x40;
    private static final int MSG_NOSIGNAL = 0x4000;
    private static final int SEND_FLAGS = MSG_NOSIGNAL | MSG_DONTWAIT;
    private static final int ECONNRESET = 104;
    private static final int EPIPE = 32;

    static {
        if (SYS_READ >= 0) {
            linkNow();
        }
    }

    /**
     * Makes each call once on no descriptor (EBADF), so that the JDK spins the call's code now and
     * not in the middle of a connection's first transfers.
     */
    private static void linkNow() {
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment capture = Downcalls.captureBuffer(arena);
            MemorySegment held = arena.allocate(8);
            ErrnoHint.read();
            long quick = (long) SYSCALL.invokeExact(SYS_READ, -1L, 0L, 0L, 0L, 0L, 0L,
                    held, MemorySegment.NULL, MemorySegment.NULL, MemorySegment.NULL);
            long captured = (long) SYSCALL_CAPTURING.invokeExact(capture, SYS_SENDTO, -1L, 0L, 0L, 0L, 0L, 0L,
                    held, MemorySegment.NULL, MemorySegment.NULL, MemorySegment.NULL);
            if (quick >= 0 || captured >= 0 || Downcalls.errno(capture) != Errno.EBADF) {
                throw new IllegalStateException("read/sendto by syscall() on no descriptor did not fail with EBADF");
            }
        } catch (RuntimeException | Error e) {
            throw e;
        } catch (Throwable t) {
            throw new IllegalStateException("linking syscall() failed", t);
        }
    }

    private final int fd;
    private final MsgHeader header;
    private final MemorySegment capture;
    private final ScopeHolds holds = new ScopeHolds(HOLDS);
    /** The errno of this object's last failed call, for {@link #write} and {@link #read} to act on. */
    private int errno;

    /**
     * @param capacity the most pieces a call may have
     * @throws UnsupportedOperationException if the descriptor cannot be had ({@link SocketDescriptor#why()}),
     *                                       or this processor's system call numbers are not known
     */
    public SyscallSocketIo(SocketChannel channel, int capacity) {
        if (SYS_READ < 0) {
            throw new UnsupportedOperationException("system calls: no system call numbers for "
                    + System.getProperty("os.arch") + " (x86-64 and aarch64 only)");
        }
        this.fd = SocketDescriptor.of(channel);
        Arena arena = Arena.ofAuto();   // connections move between engine threads; freed with this object
        this.header = new MsgHeader(arena, capacity);
        this.capture = Downcalls.captureBuffer(arena);
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalStateException the scope of a piece's memory was closed before the call
     */
    @Override
    public long write(IoVector v) throws IOException {
        if (v.pieces() == 0) {
            return 0;
        }
        int n = holds.holdFor(v);
        int i = v.start();
        long w;
        if (n == 1) {
            w = call(SYS_SENDTO, v.segment(i).address() + v.offset(i), v.length(i), SEND_FLAGS, false);
        } else {
            header.fill(v, n);
            w = call(SYS_SENDMSG, header.msghdr().address(), SEND_FLAGS, 0, false);
        }
        holds.clear();
        if (w < 0) {
            if (errno == Errno.EAGAIN) {
                return 0;
            }
            throw failure("sendmsg", errno);
        }
        v.advance(w);
        return w;
    }

    /**
     * {@inheritDoc}
     *
     * @throws IllegalStateException the scope of a piece's memory was closed before the call
     */
    @Override
    public long read(IoVector v) throws IOException {
        if (v.pieces() == 0) {
            return 0;
        }
        int n = holds.holdFor(v);
        int i = v.start();
        long r;
        if (n == 1) {
            r = call(SYS_READ, v.segment(i).address() + v.offset(i), v.length(i), 0, true);
        } else {
            int pieces = header.fill(v, n);
            r = call(SYS_READV, header.iov().address(), pieces, 0, true);
        }
        holds.clear();
        if (r < 0) {
            if (errno == Errno.EAGAIN) {
                return 0;
            }
            throw failure("readv", errno);
        }
        return r == 0 ? -1 : r;     // 0 with room to read is the peer's FIN
    }

    /**
     * One system call {@code number} on the socket with arguments {@code a}, {@code b}, {@code c}
     * (and zeros: sendto's address and its length), holding the scopes in {@link #holds}. Answers
     * the call's result; a failure leaves its errno in the field.
     */
    private long call(long number, long a, long b, long c, boolean read) throws IOException {
        try {
            long r = (long) SYSCALL.invokeExact(number, (long) fd, a, b, c, 0L, 0L,
                    holds.get(0), holds.get(1), holds.get(2), holds.get(3));
            if (r >= 0 || wouldBlock()) {
                return r;
            }
            int first = errno;
            do {
                r = (long) SYSCALL_CAPTURING.invokeExact(capture, number, (long) fd, a, b, c, 0L, 0L,
                        holds.get(0), holds.get(1), holds.get(2), holds.get(3));
            } while (r < 0 && capturedErrno() == Errno.EINTR);
            return read ? endOrFirstFailure(r, first) : r;
        } catch (IllegalStateException closed) {
            holds.clear();
            throw closed;           // a held scope was closed before the call: nothing was read or sent
        } catch (Throwable t) {
            throw new IOException((read ? "read" : "send") + " failed: " + t, t);
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
