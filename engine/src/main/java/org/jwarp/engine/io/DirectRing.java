package org.jwarp.engine.io;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;
import static java.lang.foreign.ValueLayout.JAVA_SHORT;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.Linker;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.net.InetSocketAddress;
import org.jwarp.sys.Downcalls;
import org.jwarp.sys.Errno;

/**
 * A {@link Uring} with a registered file table whose entries are sockets — io_uring's direct
 * descriptors: the kernel's sockets, made ({@code IORING_OP_SOCKET}), accepted
 * ({@code IORING_OP_ACCEPT}) and closed ({@code IORING_OP_CLOSE}) by their index in the table,
 * never entered in the process's file descriptor table. A process's open-file limit bounds its
 * descriptors, and each table (the kernel refuses a table larger than that limit), but not how
 * many tables it has: an engine thread holds as many of these rings as its sockets need.
 *
 * <p>Every call names the socket by index with {@code IOSQE_FIXED_FILE}; options are set by
 * {@code IORING_OP_URING_CMD} ({@code SOCKET_URING_OP_SETSOCKOPT}). What io_uring cannot read
 * of a direct socket (its addresses, {@code TCP_MAXSEG}) is read through a descriptor the ring
 * installs for the moment ({@code IORING_OP_FIXED_FD_INSTALL}) and closes again. Owned by one
 * engine thread.
 */
final class DirectRing implements AutoCloseable {

    static final byte IORING_OP_POLL_ADD = 6;
    static final byte IORING_OP_ACCEPT = 13;
    static final byte IORING_OP_ASYNC_CANCEL = 14;
    static final byte IORING_OP_CONNECT = 16;
    static final byte IORING_OP_CLOSE = 19;
    static final byte IORING_OP_SOCKET = 45;
    static final byte IORING_OP_URING_CMD = 46;
    static final byte IORING_OP_FIXED_FD_INSTALL = 54;
    private static final int IORING_FILE_INDEX_ALLOC = -1;
    private static final int IORING_ACCEPT_MULTISHOT = 1;
    private static final int IORING_ASYNC_CANCEL_ALL = 1;
    private static final int IORING_ASYNC_CANCEL_FD = 1 << 1;
    private static final int IORING_ASYNC_CANCEL_FD_FIXED = 1 << 3;
    private static final int SOCKET_URING_OP_SETSOCKOPT = 3;
    private static final int IORING_REGISTER_FILES2 = 13;
    private static final int IORING_RSRC_REGISTER_SPARSE = 1;
    private static final long SYS_IO_URING_REGISTER = 427;
    private static final int SOCK_STREAM = 1;
    private static final int SOCK_NONBLOCK = 0x800;
    private static final int AF_INET = 2;
    private static final int AF_INET6 = 10;

    private static final int ENFILE = 23;

    /** The table had no free entry: counted full from now on, another ring takes the socket. */
    static final class TableFull extends IOException {
        TableFull() {
            super("the ring's file table is full");
        }
    }

    /** Submission entries: a duty cycle's polls re-armed, at most, before a submit. */
    static final int ENTRIES = 1024;

    private static final MethodHandle REGISTER = Downcalls.require("syscall", FunctionDescriptor.of(JAVA_LONG,
            JAVA_LONG, JAVA_INT, JAVA_INT, ADDRESS, JAVA_INT), Linker.Option.firstVariadicArg(1));

    private final Uring ring;
    private final int table;
    private final Arena arena = Arena.ofShared();
    private final MemorySegment option = arena.allocate(8, 8);
    private final MemorySegment sockaddr = arena.allocate(28, 8);
    private int used;

    /**
     * A ring whose table has {@code table} empty entries (no more than the open-file limit), and
     * room in its completion queue for one completion of each at once: a poll armed on every
     * socket, all ready together, overflows nothing.
     */
    DirectRing(int table) throws IOException {
        this.table = table;
        this.ring = new Uring(ENTRIES, Integer.highestOneBit(Math.max(ENTRIES, 2 * table - 1)) * 2, false, 0);
        MemorySegment capture = Downcalls.captureBuffer(arena);
        MemorySegment reg = arena.allocate(32, 8);      // struct io_uring_rsrc_register, its size the call's count
        reg.set(JAVA_INT, 0, table);
        reg.set(JAVA_INT, 4, IORING_RSRC_REGISTER_SPARSE);
        long r;
        try {
            r = (long) REGISTER.invokeExact(capture, SYS_IO_URING_REGISTER, ring.fd(), IORING_REGISTER_FILES2, reg, (int) reg.byteSize());
        } catch (Throwable t) {
            ring.close();
            throw new IOException("io_uring_register failed: " + t, t);
        }
        if (r < 0) {
            ring.close();
            throw new IOException("a file table of " + table + " sockets (io_uring_register): "
                    + Errno.describe(Downcalls.errno(capture)));
        }
    }

    /**
     * Null if direct sockets can be had here, else why not (one line): a ring with a table, a
     * socket made in it, an option set on it and a descriptor installed for it.
     */
    static String why() {
        String why = Uring.why(false);
        if (why != null) {
            return why;
        }
        try (DirectRing r = new DirectRing(4)) {
            int index = r.socket(new InetSocketAddress(java.net.InetAddress.getLoopbackAddress(), 0));
            r.setOption(index, 6, 1, 1);            // TCP_NODELAY
            int fd = r.install(index);
            try {
                int unused = (int) CLOSE_FD.invokeExact(fd);
            } catch (Throwable t) {
                return "close: " + t;
            }
            r.close(index);
            return null;
        } catch (IOException | RuntimeException e) {
            return "io_uring direct descriptors: " + e.getMessage();
        }
    }

    private static final MethodHandle CLOSE_FD = Downcalls.requireWithoutErrno("close",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT));

    Uring ring() {
        return ring;
    }

    /** Sockets in the table. */
    int used() {
        return used;
    }

    /** Entries the table has left. */
    int room() {
        return table - used;
    }

    /** A socket accepted into the table counts against its room. */
    void taken() {
        used++;
    }

    /** A new non-blocking TCP socket for {@code family}'s addresses, in the table; its index. */
    int socket(InetSocketAddress like) throws IOException {
        int family = like.getAddress() instanceof java.net.Inet6Address ? AF_INET6 : AF_INET;
        long sqe = startSync(IORING_OP_SOCKET, (byte) 0, family, 0, 0, 0);
        ring.sqes().set(JAVA_LONG, sqe + 8, SOCK_STREAM | SOCK_NONBLOCK);    // no CLOEXEC: a table entry has no descriptor
        ring.sqes().set(JAVA_INT, sqe + 44, IORING_FILE_INDEX_ALLOC);
        long r = sync(sqe);
        if (r == -ENFILE) {
            used = table;                               // accepts not yet reaped took the rest
            throw new TableFull();
        }
        int index = (int) check("socket", r);
        used++;
        return index;
    }

    /** {@code setsockopt(level, name, value)} on entry {@code index}, an int option. */
    void setOption(int index, int level, int name, int value) throws IOException {
        option.set(JAVA_INT, 0, value);
        long sqe = startSync(IORING_OP_URING_CMD, Uring.IOSQE_FIXED_FILE, index, 0, 0, 0);
        MemorySegment s = ring.sqes();
        s.set(JAVA_INT, sqe + 8, SOCKET_URING_OP_SETSOCKOPT);
        s.set(JAVA_INT, sqe + 16, level);
        s.set(JAVA_INT, sqe + 20, name);
        s.set(JAVA_INT, sqe + 44, Integer.BYTES);
        s.set(JAVA_LONG, sqe + 48, option.address());
        check("setsockopt", sync(sqe));
    }

    /** Starts a connect of entry {@code index} to {@code remote}; its completion is event {@code token}. */
    void connect(int index, InetSocketAddress remote, long token) throws IOException {
        int length = SockAddr.write(sockaddr, remote);
        long sqe = startEvent(IORING_OP_CONNECT, Uring.IOSQE_FIXED_FILE, index, sockaddr.address(), 0, 0, token);
        ring.sqes().set(JAVA_LONG, sqe + 8, length);
        ring.publish(sqe);
        ring.submit();                                  // the kernel copies the address now: the buffer is reused
    }

    /** Arms a one-shot poll on entry {@code index} for {@code events}; its completion is event {@code token}. */
    void poll(int index, int events, long token) throws IOException {
        ring.publish(startEvent(IORING_OP_POLL_ADD, Uring.IOSQE_FIXED_FILE, index, 0, 0, events, token));
    }

    /**
     * Accepts on listening descriptor {@code fd} (an ordinary one) until cancelled, each socket
     * into this table; each completion is event {@code token}, its result the socket's index.
     */
    void acceptAll(int fd, long token) throws IOException {
        long sqe = startEvent(IORING_OP_ACCEPT, (byte) 0, fd, 0, 0, SOCK_NONBLOCK, token);
        ring.sqes().set(JAVA_SHORT, sqe + 2, (short) IORING_ACCEPT_MULTISHOT);
        ring.sqes().set(JAVA_INT, sqe + 44, IORING_FILE_INDEX_ALLOC);
        ring.publish(sqe);
        ring.submit();
    }

    /** Cancels the event entries with {@code token} (a listener's accepts: its descriptor may be closed already). */
    void cancel(long token) throws IOException {
        sync(startSync(IORING_OP_ASYNC_CANCEL, (byte) 0, 0, Uring.EVENT | token, 0,
                IORING_ASYNC_CANCEL_ALL));
    }

    /** Cancels every request on entry {@code index} (its polls), then closes the entry. */
    void close(int index) throws IOException {
        sync(startSync(IORING_OP_ASYNC_CANCEL, (byte) 0, index, 0, 0,
                IORING_ASYNC_CANCEL_ALL | IORING_ASYNC_CANCEL_FD | IORING_ASYNC_CANCEL_FD_FIXED));
        long sqe = startSync(IORING_OP_CLOSE, (byte) 0, 0, 0, 0, 0);
        ring.sqes().set(JAVA_INT, sqe + 44, index + 1);
        used--;
        check("close", sync(sqe));
    }

    /**
     * As {@link #close(int)}, submitted with the ring's next entries, its completions dropped: a
     * connection's close costs no system call of its own. In order, before any later entry.
     */
    void closeLater(int index) throws IOException {
        ring.publish(startEvent(IORING_OP_ASYNC_CANCEL, (byte) 0, index, 0, 0,
                IORING_ASYNC_CANCEL_ALL | IORING_ASYNC_CANCEL_FD | IORING_ASYNC_CANCEL_FD_FIXED, IGNORED));
        long sqe = startEvent(IORING_OP_CLOSE, (byte) 0, 0, 0, 0, 0, IGNORED);
        ring.sqes().set(JAVA_INT, sqe + 44, index + 1);
        ring.publish(sqe);
        used--;
    }

    /** The token of an event nobody waits for. */
    static final long IGNORED = 0;

    /** An ordinary descriptor for entry {@code index}, for calls io_uring has not; the caller closes it. */
    int install(int index) throws IOException {
        return (int) check("installing a descriptor", sync(startSync(IORING_OP_FIXED_FD_INSTALL,
                Uring.IOSQE_FIXED_FILE, index, 0, 0, 0)));
    }

    /** Room for one entry, then its common fields for a synchronous call, which {@link #sync} runs. */
    private long startSync(byte opcode, byte sqeFlags, int socket, long addr, int len, int flags) throws IOException {
        ring.awaitSqRoom();
        return ring.begin(opcode, sqeFlags, socket, addr, len, flags, Uring.SYNC);
    }

    /** Publishes the entry {@link #startSync} began and returns its result. */
    private long sync(long sqe) throws IOException {
        ring.publish(sqe);
        return ring.awaitSync();
    }

    /** Room for one entry, then its common fields for an event with {@code token}, submitted with the next enter. */
    private long startEvent(byte opcode, byte sqeFlags, int socket, long addr, int len, int flags, long token)
            throws IOException {
        ring.awaitSqRoom();
        return ring.begin(opcode, sqeFlags, socket, addr, len, flags, Uring.EVENT | token);
    }

    private static long check(String what, long r) throws IOException {
        if (r < 0) {
            throw new IOException(what + " (io_uring): " + Errno.describe((int) -r));
        }
        return r;
    }

    @Override
    public void close() {
        ring.close();                                   // the table goes with it, and every socket still in it
        arena.close();
    }
}
