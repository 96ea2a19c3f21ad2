package org.jwarp.engine.io;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;

/**
 * A {@code struct msghdr} and the {@code struct iovec} array it points at, in native memory a
 * connection keeps for its calls: filled from an {@link IoVector} before each {@code sendmsg},
 * {@code recvmsg} or {@code readv}, straight from the pieces' addresses.
 */
final class MsgHeader {

    /** struct iovec: void *iov_base; size_t iov_len. */
    private static final long IOVEC = 16;
    /** struct msghdr (x86-64 and aarch64 Linux): name, namelen, iov, iovlen, control, controllen, flags. */
    private static final long MSGHDR = 56;
    private static final long MSG_IOV = 16;
    private static final long MSG_IOVLEN = 24;

    private final MemorySegment iov;
    private final MemorySegment msghdr;
    private final int capacity;

    MsgHeader(Arena arena, int capacity) {
        this.capacity = capacity;
        this.iov = arena.allocate(IOVEC * capacity, 8);
        this.msghdr = arena.allocate(MSGHDR, 8);
        msghdr.set(ADDRESS, MSG_IOV, iov);
    }

    MemorySegment msghdr() {
        return msghdr;
    }

    MemorySegment iov() {
        return iov;
    }

    /** Writes the pieces still to transfer into the iovec array and the msghdr; returns how many. */
    int fill(IoVector v) {
        return fill(v, v.pieces());
    }

    /** As {@link #fill(IoVector)}, the first {@code pieces} of them at most. */
    int fill(IoVector v, int pieces) {
        int n = 0;
        int limit = Math.min(capacity, pieces);
        for (int i = v.start(); i < v.end() && n < limit; i++, n++) {
            long at = n * IOVEC;
            iov.set(JAVA_LONG, at, v.segment(i).address() + v.offset(i));
            iov.set(JAVA_LONG, at + 8, v.length(i));
        }
        msghdr.set(JAVA_LONG, MSG_IOVLEN, n);
        return n;
    }
}
