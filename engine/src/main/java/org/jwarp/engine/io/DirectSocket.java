package org.jwarp.engine.io;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_INT;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.FunctionDescriptor;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.MethodHandle;
import java.net.ConnectException;
import java.net.InetSocketAddress;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import org.jwarp.sys.Downcalls;
import org.jwarp.sys.Errno;

/**
 * A {@link TcpSocket} that is an io_uring direct descriptor: an entry in the file table of one of
 * its engine thread's {@link DirectRing}s, not a descriptor of the process. Every call goes
 * through that ring. Readiness is a one-shot poll armed on the ring for each direction the
 * connection is interested in, re-armed after it is handed on ({@link UringDirectIoDriver}); an
 * idle socket costs one armed poll in the kernel and nothing in the engine. The connect is an
 * {@code IORING_OP_CONNECT} whose completion is the socket's {@link IoDriver#OP_CONNECT}
 * readiness. The socket is its own {@link IoRegistration}: it is watched by one driver, its
 * ring's. Owner engine thread only.
 */
public final class DirectSocket implements TcpSocket, IoRegistration {

    static final int POLLIN = 0x1;
    static final int POLLOUT = 0x4;
    static final int POLLERR = 0x8;
    static final int POLLHUP = 0x10;
    static final int POLLRDHUP = 0x2000;
    private static final int MSG_DONTWAIT = 0x40;
    private static final int MSG_NOSIGNAL = 0x4000;
    private static final int EAGAIN = 11;

    private static final MethodHandle GETSOCKNAME = Downcalls.requireWithoutErrno("getsockname",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle GETPEERNAME = Downcalls.requireWithoutErrno("getpeername",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT, ADDRESS, ADDRESS));
    private static final MethodHandle CLOSE = Downcalls.requireWithoutErrno("close",
            FunctionDescriptor.of(JAVA_INT, JAVA_INT));

    private UringDirectIoDriver driver;
    private DirectRing ring;
    private int index = -1;
    /** Its place in the driver's table of sockets, and that place's generation: an event's token. */
    private int slot;
    private int generation;
    private InetSocketAddress local;
    private InetSocketAddress remote;
    private int mss = -1;
    private boolean connecting;
    private int connectResult;
    /** Why the socket could not be made or connected; {@link #finishConnect} throws it. */
    private IOException failure;

    private int interest;
    private Object attachment;
    private boolean registered;
    private int ready;
    private boolean readArmed;
    private boolean writeArmed;
    boolean queued;
    private boolean closed;

    /** A socket that {@link #connect} makes on its owner's driver. */
    public DirectSocket() {
    }

    /** An accepted socket at {@code index} of {@code ring}. */
    DirectSocket(UringDirectIoDriver driver, DirectRing ring, int index) {
        bind(driver, ring, index);
    }

    private void bind(UringDirectIoDriver d, DirectRing r, int i) {
        driver = d;
        ring = r;
        index = i;
        slot = d.enter(this);
        generation = d.generation(slot);
    }

    /**
     * Owner engine thread: makes the socket in {@code io}'s rings, gives it {@code options}, and
     * starts its connect to {@code target}. A failure is kept for {@link #finishConnect} to throw,
     * and the socket reports itself ready to connect at once.
     */
    public void connect(IoDriver io, InetSocketAddress target, Options options) {
        remote = target;
        connecting = true;
        try {
            if (!(io instanceof UringDirectIoDriver d)) {
                throw new IOException("a direct socket needs the uring-direct layer, not " + io.layer());
            }
            DirectRing r = d.ringWithRoom();
            int i;
            try {
                i = r.socket(target);
            } catch (DirectRing.TableFull full) {
                r = d.ringWithRoom();                   // accepts not yet reaped filled that table
                i = r.socket(target);
            }
            bind(d, r, i);
            options.apply(this);
            r.connect(index, target, token(UringDirectIoDriver.CONNECT));
        } catch (IOException | RuntimeException e) {
            failure = e instanceof IOException io2 ? io2 : new IOException(e.toString(), e);
            connecting = false;
            ready |= IoDriver.OP_CONNECT | IoDriver.OP_WRITE;
            if (driver != null) {
                driver.enqueue(this);
            }
        }
    }

    /** What a new socket is given before its connect (or after its accept). */
    @FunctionalInterface
    public interface Options {
        void apply(DirectSocket s) throws IOException;
    }

    /** {@code setsockopt} of an int option. */
    public void setOption(int level, int name, int value) throws IOException {
        ring.setOption(index, level, name, value);
    }

    long token(int kind) {
        return (long) kind << 56 | (long) (generation & 0xFFFFFF) << 32 | (slot & 0xFFFFFFFFL);
    }

    int generationBits() {
        return generation & 0xFFFFFF;
    }

    DirectRing ring() {
        return ring;
    }

    int index() {
        return index;
    }

    /** A completion of this socket's entries: {@code kind} as in its token, {@code res} its result. */
    void event(int kind, int res) {
        if (closed) {
            return;
        }
        switch (kind) {
            case UringDirectIoDriver.READ_POLL -> {
                readArmed = false;
                ready |= res < 0 ? IoDriver.OP_READ : readyOps(res);
            }
            case UringDirectIoDriver.WRITE_POLL -> {
                writeArmed = false;
                ready |= res < 0 ? IoDriver.OP_WRITE : readyOps(res);
            }
            case UringDirectIoDriver.CONNECT -> {
                connecting = false;
                connectResult = res;
                ready |= IoDriver.OP_CONNECT | IoDriver.OP_WRITE;
            }
            default -> {
                return;
            }
        }
        if (registered) {
            try {
                arm();
            } catch (IOException e) {
                throw new java.io.UncheckedIOException(e);
            }
        }
        driver.enqueue(this);
    }

    private static int readyOps(int revents) {
        int r = 0;
        if ((revents & (POLLIN | POLLERR | POLLHUP | POLLRDHUP)) != 0) {
            r |= IoDriver.OP_READ;
        }
        if ((revents & (POLLOUT | POLLERR | POLLHUP)) != 0) {
            r |= IoDriver.OP_WRITE;
        }
        return r;
    }

    /**
     * Hands what is ready of the interest to {@code handler}, and arms the polls the interest
     * still needs; returns 1 if it handed anything. Bits of no interest stay for later.
     */
    int handOut(IoDriver.ReadyHandler handler) throws IOException {
        queued = false;
        if (!registered || closed) {
            return 0;
        }
        int r = ready & interest;
        if (r == 0) {
            return 0;
        }
        ready &= ~r;
        handler.ready(attachment, r);
        return 1;
    }

    /**
     * Arms a poll for each direction of the interest that has none armed — also when that
     * direction is ready already: a one-shot poll on a socket that is still ready completes at
     * once, so a readiness the duty cycle did not use up comes back, and one it used up does not
     * (level-triggered, as epoll's).
     */
    private void arm() throws IOException {
        if ((interest & IoDriver.OP_READ) != 0 && !readArmed) {
            readArmed = true;
            ring.poll(index, POLLIN | POLLRDHUP, token(UringDirectIoDriver.READ_POLL));
        }
        if ((interest & IoDriver.OP_WRITE) != 0 && !writeArmed) {
            writeArmed = true;
            ring.poll(index, POLLOUT, token(UringDirectIoDriver.WRITE_POLL));
        }
        if ((ready & interest) != 0) {
            driver.enqueue(this);
        }
    }

    @Override
    public IoRegistration register(IoDriver io, int ops, Object attachment) throws IOException {
        if (closed) {
            throw new ClosedChannelException();
        }
        if (io != driver) {
            throw new IOException("a direct socket is watched by its own ring's driver only");
        }
        this.attachment = attachment;
        registered = true;
        interestOps(ops);
        return this;
    }

    @Override
    public int interestOps() {
        return registered ? interest : 0;
    }

    @Override
    public void interestOps(int ops) throws IOException {
        if (!registered || closed) {
            throw new IOException("the socket's registration was cancelled (closed?)");
        }
        interest = ops;
        arm();
    }

    @Override
    public Object attachment() {
        return attachment;
    }

    @Override
    public boolean isValid() {
        return registered && !closed;
    }

    @Override
    public void cancel() {
        registered = false;
    }

    @Override
    public SocketIo open(IoDriver io, int capacity) {
        if (io != driver) {
            throw new UnsupportedOperationException("a direct socket makes its calls on its own ring's driver only");
        }
        return new DirectSocketIo(this, capacity);
    }

    @Override
    public boolean finishConnect() throws IOException {
        if (failure != null) {
            throw failure;
        }
        if (connecting) {
            return false;
        }
        if (connectResult < 0) {
            throw new ConnectException(Errno.describe(-connectResult));
        }
        return true;
    }

    @Override
    public int read(ByteBuffer dst) throws IOException {
        if (!dst.hasRemaining()) {
            return 0;
        }
        int n;
        if (dst.isDirect()) {
            long r = ring.ring().call(Uring.IORING_OP_RECV, Uring.IOSQE_FIXED_FILE, index,
                    MemorySegment.ofBuffer(dst).address(), dst.remaining(), MSG_DONTWAIT);
            n = readResult(r);
            if (n > 0) {
                dst.position(dst.position() + n);
            }
        } else {
            MemorySegment scratch = driver.scratch();
            int want = (int) Math.min(dst.remaining(), scratch.byteSize());
            n = readResult(ring.ring().call(Uring.IORING_OP_RECV, Uring.IOSQE_FIXED_FILE, index, scratch.address(),
                    want, MSG_DONTWAIT));
            if (n > 0) {
                dst.put(scratch.asSlice(0, n).asByteBuffer());
            }
        }
        return n;
    }

    private static int readResult(long r) throws IOException {
        if (r < 0) {
            if (r == -EAGAIN) {
                return 0;
            }
            throw SyscallSocketIo.failure("recv (io_uring)", (int) -r);
        }
        return r == 0 ? -1 : (int) r;
    }

    @Override
    public int write(ByteBuffer src) throws IOException {
        if (!src.hasRemaining()) {
            return 0;
        }
        long r;
        if (src.isDirect()) {
            r = ring.ring().call(Uring.IORING_OP_SEND, Uring.IOSQE_FIXED_FILE, index,
                    MemorySegment.ofBuffer(src).address(), src.remaining(), MSG_DONTWAIT | MSG_NOSIGNAL);
        } else {
            MemorySegment scratch = driver.scratch();
            int n = (int) Math.min(src.remaining(), scratch.byteSize());
            MemorySegment.copy(MemorySegment.ofBuffer(src), 0, scratch, 0, n);
            r = ring.ring().call(Uring.IORING_OP_SEND, Uring.IOSQE_FIXED_FILE, index, scratch.address(), n,
                    MSG_DONTWAIT | MSG_NOSIGNAL);
        }
        if (r < 0) {
            if (r == -EAGAIN) {
                return 0;
            }
            throw SyscallSocketIo.failure("send (io_uring)", (int) -r);
        }
        src.position(src.position() + (int) r);
        return (int) r;
    }

    @Override
    public InetSocketAddress localAddress() {
        peek();
        return local;
    }

    @Override
    public InetSocketAddress remoteAddress() {
        if (remote == null) {
            peek();
        }
        return remote;
    }

    @Override
    public int mss() {
        peek();
        return Math.max(0, mss);
    }

    /**
     * Reads the addresses and the MSS once, through a descriptor installed for the moment: io_uring
     * has no {@code getsockname} here. Once connected (before, what is read is kept only in part).
     */
    private void peek() {
        if (mss >= 0 || closed || ring == null || connecting) {
            return;
        }
        int fd;
        try {
            fd = ring.install(index);
        } catch (IOException e) {
            return;
        }
        try (Arena arena = Arena.ofConfined()) {
            MemorySegment sa = arena.allocate(28, 8);
            MemorySegment length = arena.allocate(JAVA_INT);
            length.set(JAVA_INT, 0, 28);
            if ((int) GETSOCKNAME.invokeExact(fd, sa, length) == 0) {
                local = SockAddr.read(sa);
            }
            length.set(JAVA_INT, 0, 28);
            if (remote == null && (int) GETPEERNAME.invokeExact(fd, sa, length) == 0) {
                remote = SockAddr.read(sa);
            }
            mss = TcpMss.ofDescriptor(fd);
        } catch (Throwable t) {
            mss = 0;
        } finally {
            try {
                int unused = (int) CLOSE.invokeExact(fd);
            } catch (Throwable ignored) {
                // a close of a descriptor just installed does not fail
            }
        }
    }

    @Override
    public void close() throws IOException {
        if (closed) {
            return;
        }
        closed = true;
        registered = false;
        if (driver != null) {
            driver.leave(this, slot);
        }
        if (ring != null && index >= 0) {
            ring.closeLater(index);
        }
    }

    boolean closed() {
        return closed;
    }

    @Override
    public String toString() {
        return "DirectSocket[" + (local == null ? "" : local + " ") + "-> " + remote + ", entry " + index + "]";
    }
}
