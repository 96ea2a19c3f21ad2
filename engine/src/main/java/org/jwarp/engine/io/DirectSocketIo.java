package org.jwarp.engine.io;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * {@link SocketIo} of a {@link DirectSocket}: each call one {@code send}/{@code recv} (one piece)
 * or {@code sendmsg}/{@code recvmsg} entry on the socket's ring, naming it by its table index,
 * with {@code MSG_DONTWAIT} so that no room or no data completes at once with -EAGAIN, as
 * {@link UringSocketIo} makes them. A direct socket has no descriptor for {@link SyscallSocketIo}
 * to call on, so a call with a piece in application memory is on the ring too: it is submitted
 * and completes inside one {@code io_uring_enter} that holds the pieces' scopes
 * ({@link Uring#callHolding}), so an arena is never freed under it.
 */
final class DirectSocketIo implements SocketIo {

    private static final int MSG_DONTWAIT = 0x40;
    private static final int MSG_NOSIGNAL = 0x4000;
    private static final int EAGAIN = 11;

    private final DirectSocket socket;
    private final MsgHeader header;
    private final ScopeHolds holds = new ScopeHolds(SyscallSocketIo.HOLDS);

    DirectSocketIo(DirectSocket socket, int capacity) {
        this.socket = socket;
        this.header = new MsgHeader(Arena.ofAuto(), capacity);
    }

    @Override
    public long write(IoVector v) throws IOException {
        if (v.pieces() == 0) {
            return 0;
        }
        long w = call(v, Uring.IORING_OP_SEND, Uring.IORING_OP_SENDMSG, MSG_NOSIGNAL | MSG_DONTWAIT);
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
        if (v.pieces() == 0) {
            return 0;
        }
        long r = call(v, Uring.IORING_OP_RECV, Uring.IORING_OP_RECVMSG, MSG_DONTWAIT);
        if (r < 0) {
            if (r == -EAGAIN) {
                return 0;
            }
            throw SyscallSocketIo.failure("recvmsg (io_uring)", (int) -r);
        }
        return r == 0 ? -1 : r;     // 0 with room to read is the peer's FIN
    }

    /** One entry for {@code v}'s leading pieces: {@code plainOp} on one, else {@code msgOp} with the msghdr. */
    private long call(IoVector v, byte plainOp, byte msgOp, int flags) throws IOException {
        Uring ring = socket.ring().ring();
        int index = socket.index();
        if (v.onlyStaging()) {
            if (v.pieces() == 1) {
                int i = v.start();
                return ring.call(plainOp, Uring.IOSQE_FIXED_FILE, index, v.segment(i).address() + v.offset(i),
                        (int) Math.min(v.length(i), Integer.MAX_VALUE), flags);
            }
            header.fill(v);
            return ring.call(msgOp, Uring.IOSQE_FIXED_FILE, index, header.msghdr().address(), 1, flags);
        }
        int n = holds.holdFor(v);
        try {
            if (n == 1) {
                int i = v.start();
                return ring.callHolding(plainOp, index, v.segment(i).address() + v.offset(i),
                        (int) Math.min(v.length(i), Integer.MAX_VALUE), flags, holds);
            }
            header.fill(v, n);
            return ring.callHolding(msgOp, index, header.msghdr().address(), 1, flags, holds);
        } finally {
            holds.clear();
        }
    }

    @Override
    public boolean canAddress(MemorySegment segment) {
        return segment.isNative();
    }

    @Override
    public String layer() {
        return "uring-direct";
    }
}
