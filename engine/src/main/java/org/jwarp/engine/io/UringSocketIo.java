package org.jwarp.engine.io;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.SocketChannel;
import java.util.function.Supplier;

/**
 * {@link SocketIo} through io_uring: each call is one {@code sendmsg} or {@code recvmsg} entry on
 * the ring of the engine thread that runs the connection now ({@link Uring}), with the I/O vector
 * written straight from the pieces' addresses as {@link SyscallSocketIo} does; a call of one
 * piece is a {@code send} or {@code recv} entry, which the kernel takes without importing a
 * msghdr. With an SQPOLL ring the engine thread makes no system call for it at all.
 *
 * <p>The ring carries calls on staging memory only (every small message, FPDU headers and
 * trailers, the receive buffer). A call with a piece in application memory — a zero-copy payload,
 * a direct placement — is made by {@link SyscallSocketIo} on the same descriptor instead, which
 * holds the memory's scope for the call: an entry on the ring is taken by the kernel outside any
 * call of this thread (by the SQPOLL thread, or by whichever {@code io_uring_enter} submits it),
 * so no downcall could hold the scope across it, and an application that closed its arena then
 * would have the kernel write into freed memory. Those calls move large payloads, where one
 * system call is small beside the bytes it moves.
 */
public final class UringSocketIo implements SocketIo {

    private static final int MSG_DONTWAIT = 0x40;
    private static final int MSG_NOSIGNAL = 0x4000;
    private static final int EAGAIN = 11;

    private final int fd;
    private final MsgHeader header;
    private final Supplier<Uring> ring;
    private final String layer;
    /** The calls on application memory (see the class comment). */
    private final SyscallSocketIo direct;

    /**
     * @param ring     the ring of the thread that runs the connection at the time of a call
     * @param capacity the most pieces a call may have
     * @throws UnsupportedOperationException if the descriptor cannot be had ({@link SocketDescriptor#why()})
     */
    public UringSocketIo(SocketChannel channel, int capacity, Supplier<Uring> ring, String layer) {
        this.fd = SocketDescriptor.of(channel);
        this.header = new MsgHeader(Arena.ofAuto(), capacity);
        this.ring = ring;
        this.layer = layer;
        this.direct = new SyscallSocketIo(channel, capacity);
    }

    @Override
    public long write(IoVector v) throws IOException {
        int pieces = v.pieces();
        if (pieces == 0) {
            return 0;
        }
        if (!v.onlyStaging()) {
            return direct.write(v);
        }
        return written(v, call(v, pieces, Uring.IORING_OP_SEND, Uring.IORING_OP_SENDMSG,
                MSG_NOSIGNAL | MSG_DONTWAIT));
    }

    /**
     * Queued on the ring of the thread that runs the connection now, until its {@link Uring#flush};
     * not a write with a piece in application memory (the caller then calls {@link #write}).
     */
    @Override
    public boolean writeLater(IoVector v, IoCompletion done) {
        return later(v, Uring.IORING_OP_SEND, Uring.IORING_OP_SENDMSG, MSG_NOSIGNAL | MSG_DONTWAIT, done);
    }

    /**
     * Queues one entry for {@code v} as {@link #call} would make it. The msghdr is the one reads
     * share: the owner queues at most one write per connection, and reads none, before a flush.
     */
    private boolean later(IoVector v, byte plainOp, byte msgOp, int flags, IoCompletion done) {
        int pieces = v.pieces();
        if (pieces == 0 || !v.onlyStaging()) {
            return false;
        }
        Uring r = ring.get();
        if (pieces == 1) {
            int i = v.start();
            return r.queue(plainOp, fd, v.segment(i).address() + v.offset(i), v.length(i), flags, done);
        }
        header.fill(v);
        return r.queue(msgOp, fd, header.msghdr().address(), 1, flags, done);
    }

    @Override
    public long written(IoVector v, long w) throws IOException {
        if (w < 0) {
            if (w == -EAGAIN) {
                return 0;
            }
            throw SyscallSocketIo.failure("sendmsg (io_uring)", (int) -w);
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
        if (!v.onlyStaging()) {
            return direct.read(v);
        }
        return readResult(call(v, pieces, Uring.IORING_OP_RECV, Uring.IORING_OP_RECVMSG, MSG_DONTWAIT));
    }

    /** What a {@code recv} or {@code recvmsg} that returned {@code r} means: {@link #read}'s return. */
    private static long readResult(long r) throws IOException {
        if (r < 0) {
            if (r == -EAGAIN) {
                return 0;
            }
            throw SyscallSocketIo.failure("recvmsg (io_uring)", (int) -r);
        }
        return r == 0 ? -1 : r;     // 0 with room to read is the peer's FIN
    }

    /** One entry for {@code v}: {@code plainOp} on its one piece, else {@code msgOp} with its msghdr. */
    private long call(IoVector v, int pieces, byte plainOp, byte msgOp, int flags) throws IOException {
        if (pieces == 1) {
            int i = v.start();
            return ring.get().plain(plainOp, fd, v.segment(i).address() + v.offset(i), v.length(i), flags);
        }
        header.fill(v);
        return ring.get().msg(msgOp, fd, header.msghdr(), flags);
    }

    @Override
    public boolean canAddress(MemorySegment segment) {
        return segment.isNative();
    }

    @Override
    public String layer() {
        return layer;
    }
}
