package org.jwarp.engine.toe;

import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.lang.foreign.MemorySegment;
import java.lang.foreign.ValueLayout;
import java.net.InetSocketAddress;
import java.net.SocketException;
import java.nio.ByteBuffer;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.BooleanSupplier;

/**
 * A TCP connection whose protocol work runs on an offload engine thread: the host side of seed
 * 001's TOE socket. The API follows {@link java.net.Socket} (blocking streams) and adds a
 * non-blocking form ({@link #write(ByteBuffer)}, {@link #read(ByteBuffer)},
 * {@link #awaitReadable}, {@link #awaitWritable}).
 *
 * <p><b>Who does what.</b> The calling (host) thread copies written bytes into this socket's send
 * buffer and posts a descriptor to the engine; it copies received bytes out of the anonymous
 * buffers the engine filled. The engine thread makes every system call: it sends from the send
 * buffer, reads the socket into anonymous buffers, connects, accepts and closes. A write returns
 * once its bytes are in the send buffer; the engine's count of bytes sent, mirrored in this object,
 * frees send-buffer space with no event per send. A writer that finds the buffer full asks for one
 * event once {@link ToeConfig#sendNotifyBytes()} are free and sleeps until it comes.
 *
 * <p><b>Threads.</b> One thread may read and another write at the same time; two threads reading
 * (or writing) at once get an {@link IllegalStateException}. Any thread may close the socket; a
 * read or write under way then fails with a {@link SocketException}. Bytes written before a close
 * or {@link #shutdownOutput()} are still sent (the engine lingers up to
 * {@link ToeConfig#closeLingerMillis()} for a peer that does not read); received bytes the host has
 * not read are dropped at close, as a kernel socket drops them.
 */
public final class ToeSocket implements Closeable {

    private final HostQueuePair home;
    private final ToeEngine engine;
    private final int sendCapacity;
    private final int sendMask;
    private final int notifyBytes;
    /** The send buffer as the host fills it (byte arrays: no position state). */
    private final MemorySegment sendSegment;
    /** The send buffer as the host fills it from ByteBuffers (writer thread: its position changes). */
    private final ByteBuffer sendHostView;
    /** Bytes handed to the engine so far (writer thread). */
    private long posted;
    /** Cumulative send completion: bytes the engine has passed to TCP (written by the engine thread). */
    private volatile long bytesSent;
    /** What a sleeping writer waits for {@link #bytesSent} to reach. */
    private volatile long sendWaitTarget;

    private final ReceivedBuffers received;

    private volatile boolean connectAnswered;
    private volatile boolean endOfStream;
    private volatile boolean outputShut;
    private volatile boolean closing;
    private volatile boolean closeAnswered;
    private volatile Throwable failure;
    private volatile InetSocketAddress remote;
    private volatile InetSocketAddress local;
    private final AtomicBoolean reading = new AtomicBoolean();
    private final AtomicBoolean writing = new AtomicBoolean();
    private final AtomicBoolean closeStarted = new AtomicBoolean();

    /** The engine's side of this socket (engine thread only). */
    private EngineSocket engineSide;

    private final BooleanSupplier readable = this::readReady;
    private final BooleanSupplier writable = () -> bytesSent >= sendWaitTarget || failure != null || closing;
    private final BooleanSupplier connected = () -> connectAnswered;
    private final BooleanSupplier closed = () -> closeAnswered;

    private final InputStream in = new ToeSocketStreams.In(this);
    private final OutputStream out = new ToeSocketStreams.Out(this);

    ToeSocket(HostQueuePair home, ToeConfig config) {
        this.home = home;
        this.engine = home.engine();
        this.sendCapacity = config.sendBufferBytes();
        this.sendMask = sendCapacity - 1;
        this.notifyBytes = config.sendNotifyBytes();
        ByteBuffer memory = ByteBuffer.allocateDirect(sendCapacity);
        this.sendSegment = MemorySegment.ofBuffer(memory);
        this.sendHostView = memory.duplicate();
        this.received = new ReceivedBuffers(engine.pool(), config.buffersPerSocket(), engine.slot()::ring);
    }

    /**
     * Blocking read, as {@link InputStream#read(byte[], int, int)}: at least one byte, or -1 at the
     * end of the stream.
     *
     * @throws SocketException if the socket is closed or the connection failed (after every byte
     *                         received before the failure has been read)
     * @param b   where the bytes go
     * @param off the first index in {@code b}
     * @param len the most bytes to read
     * @return bytes read, or -1 at the end of the stream
     */
    public int read(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        if (len == 0) {
            return 0;
        }
        enter(reading, "read");
        try {
            while (true) {
                int n = take(b, off, len, null);
                if (n != 0) {
                    return n;
                }
                home.await(readable, Long.MAX_VALUE);
            }
        } finally {
            leaveRead();
        }
    }

    /**
     * Non-blocking read: copies what has arrived into {@code dst}.
     *
     * @return bytes copied, 0 if none has arrived, -1 at the end of the stream
     * @param dst where the bytes go
     * @throws IOException if the socket is closed or the connection failed
     */
    public int read(ByteBuffer dst) throws IOException {
        if (!dst.hasRemaining()) {
            return 0;
        }
        enter(reading, "read");
        try {
            int total = 0;
            while (dst.hasRemaining()) {
                int n = take(null, 0, dst.remaining(), dst);
                if (n <= 0) {
                    return total > 0 ? total : n;
                }
                total += n;
            }
            return total;
        } finally {
            leaveRead();
        }
    }

    /**
     * Waits until a read would not return 0 (data, the end of the stream, a failure or a close).
     *
     * @param timeout the longest wait
     * @param unit    the unit of {@code timeout}
     * @return whether a read would not return 0
     * @throws IOException if the thread is interrupted while waiting ({@link java.io.InterruptedIOException})
     */
    public boolean awaitReadable(long timeout, TimeUnit unit) throws IOException {
        return home.await(readable, unit.toNanos(timeout));
    }

    /** Whether a read would not return 0: data, the end of the stream, a failure or a close. */
    private boolean readReady() {
        return !received.isEmpty() || endOfStream || failure != null || closing;
    }

    /** {@return the bytes that can be read now without waiting} */
    public int available() {
        home.drain();
        return received.bytes();
    }

    /** Reader: copies from the head buffer into {@code b} or {@code dst}; 0 if nothing has arrived. */
    private int take(byte[] b, int off, int len, ByteBuffer dst) throws IOException {
        home.drain();
        if (received.isEmpty()) {
            if (closing) {
                throw new SocketException("socket closed");
            }
            if (failure != null) {
                throw failed("read");
            }
            if (endOfStream) {
                return -1;
            }
            engine.checkAlive();
            return 0;
        }
        return received.copyOut(b, off, len, dst);
    }

    private void leaveRead() {
        reading.set(false);
        if (closing) {
            dropReceived();
        }
    }

    /** Gives back every attached buffer of a closed socket, unless a reader still copies from one (it will). */
    private void dropReceived() {
        if (!reading.compareAndSet(false, true)) {
            return;
        }
        try {
            received.dropAll();
        } finally {
            reading.set(false);
        }
    }

    /**
     * Blocking write: returns once every byte is in the send buffer (not yet on the wire). Sleeps
     * while the send buffer is full.
     *
     * @param b   the bytes
     * @param off the first index in {@code b}
     * @param len how many bytes to write
     * @throws IOException if the socket is closed, its output shut down or the connection failed
     */
    public void write(byte[] b, int off, int len) throws IOException {
        Objects.checkFromIndexSize(off, len, b.length);
        enter(writing, "write");
        try {
            while (len > 0) {
                int n = put(b, off, len, null);
                if (n == 0) {
                    awaitSpace(Long.MAX_VALUE);
                }
                off += n;
                len -= n;
            }
        } finally {
            writing.set(false);
        }
    }

    /**
     * Non-blocking write: copies as much of {@code src} as the send buffer takes and hands it to the
     * engine.
     *
     * @return bytes taken (0 if the send buffer is full)
     * @param src the bytes
     * @throws IOException if the socket is closed, its output shut down or the connection failed
     */
    public int write(ByteBuffer src) throws IOException {
        enter(writing, "write");
        try {
            return src.hasRemaining() ? put(null, 0, src.remaining(), src) : 0;
        } finally {
            writing.set(false);
        }
    }

    /**
     * Waits until at least {@link ToeConfig#sendNotifyBytes()} of the send buffer are free (or the
     * socket failed or closed).
     *
     * @param timeout the longest wait
     * @param unit    the unit of {@code timeout}
     * @return whether the space is free
     * @throws IOException if the socket is closed, its output shut down or the connection failed
     */
    public boolean awaitWritable(long timeout, TimeUnit unit) throws IOException {
        checkWritable();
        if (sendCapacity - (posted - bytesSent) >= notifyBytes) {
            return true;
        }
        return awaitSpace(unit.toNanos(timeout));
    }

    /** Asks the engine for one event once enough is sent, and sleeps until then. */
    private boolean awaitSpace(long nanos) throws IOException {
        long target = posted - sendCapacity + notifyBytes;
        sendWaitTarget = target;
        home.post(Request.Kind.NOTIFY_SENT, this, null, target, null);
        boolean ok = home.await(writable, nanos);
        checkWritable();
        return ok;
    }

    /** Writer: copies into the send buffer and posts one descriptor; 0 if the buffer is full. */
    private int put(byte[] b, int off, int len, ByteBuffer src) throws IOException {
        checkWritable();
        long free = sendCapacity - (posted - bytesSent);
        if (free == 0) {
            return 0;
        }
        int n = (int) Math.min(free, len);
        int pos = (int) (posted & sendMask);
        int first = Math.min(n, sendCapacity - pos);
        copyIn(b, off, src, pos, first);
        if (n > first) {
            copyIn(b, off + first, src, 0, n - first);
        }
        posted += n;
        home.post(Request.Kind.SEND, this, null, n, null);
        return n;
    }

    private void copyIn(byte[] b, int off, ByteBuffer src, int pos, int n) {
        if (src == null) {
            MemorySegment.copy(b, off, sendSegment, ValueLayout.JAVA_BYTE, pos, n);
            return;
        }
        int limit = src.limit();
        src.limit(src.position() + n);
        sendHostView.limit(pos + n).position(pos);
        sendHostView.put(src);
        src.limit(limit);
    }

    private void checkWritable() throws IOException {
        if (closing) {
            throw new SocketException("socket closed");
        }
        if (outputShut) {
            throw new SocketException("socket output is shut down");
        }
        if (failure != null) {
            throw failed("write");
        }
        engine.checkAlive();
    }

    /** {@return the bytes the engine has passed to TCP so far (the mirrored cumulative count)} */
    public long bytesSent() {
        return bytesSent;
    }

    /**
     * A blocking stream over {@link #read(byte[], int, int)}; closing it closes the socket.
     *
     * @return the stream
     */
    public InputStream getInputStream() {
        return in;
    }

    /**
     * A blocking stream over {@link #write(byte[], int, int)}; closing it closes the socket.
     *
     * @return the stream
     */
    public OutputStream getOutputStream() {
        return out;
    }

    /**
     * Ends this side's output: once every byte written is sent, the peer reads the end of the
     * stream. Reading goes on.
     *
     * @throws IOException if the socket is closed or the connection failed
     */
    public void shutdownOutput() throws IOException {
        if (outputShut) {
            return;
        }
        checkWritable();
        outputShut = true;
        home.post(Request.Kind.SHUTDOWN_OUTPUT, this, null, 0, null);
    }

    /**
     * Closes the socket (a request and its event, seed 001 §III). Bytes already written are still
     * sent; the call returns once the engine has taken the close.
     */
    @Override
    public void close() throws IOException {
        if (!closeStarted.compareAndSet(false, true)) {
            return;
        }
        closing = true;
        if (engine.isGone()) {
            dropReceived();
            return;
        }
        home.post(Request.Kind.CLOSE, this, null, 0, null);
        home.await(closed, Long.MAX_VALUE);
        dropReceived();
    }

    /** {@return whether the socket is connected: the connection was made, has not failed and is not closed} */
    public boolean isConnected() {
        return connectAnswered && failure == null && !closing;
    }

    /** {@return whether {@link #close()} has been called} */
    public boolean isClosed() {
        return closing;
    }

    /** {@return the peer's address} */
    public InetSocketAddress getRemoteSocketAddress() {
        return remote;
    }

    /** {@return this end's address} */
    public InetSocketAddress getLocalSocketAddress() {
        return local;
    }

    @Override
    public String toString() {
        return "ToeSocket{" + local + " -> " + remote + (closing ? ", closed" : "") + (failure != null ? ", failed: "
                + failure : "") + '}';
    }

    /** Host: connects, waiting for the engine's answer. */
    void connect(InetSocketAddress to, long timeoutNanos) throws IOException {
        remote = to;
        home.post(Request.Kind.CONNECT, this, null, 0, to);
        if (!home.await(connected, timeoutNanos)) {
            engine.checkAlive();
            close();
            throw new java.net.SocketTimeoutException("connect to " + to + " timed out");
        }
        if (failure != null) {
            Throwable f = failure;
            close();
            java.net.ConnectException e = new java.net.ConnectException("connect to " + to + " failed: "
                    + f.getMessage());
            e.initCause(f);
            throw e;
        }
    }

    /** {@return the queue pair this socket lives on: its requests go there, its events come back there} */
    HostQueuePair home() {
        return home;
    }

    /** {@return the send buffer's memory, for the engine's view of it (its own position and limit)} */
    MemorySegment sendMemory() {
        return sendSegment;
    }

    /** {@return the engine's side of this socket (engine thread only)} */
    EngineSocket engineSide() {
        return engineSide;
    }

    /** Engine thread: the engine's side is made. */
    void attach(EngineSocket side) {
        engineSide = side;
    }

    /** Engine thread: the cumulative send completion, mirrored here: {@code sent} bytes passed to TCP in all. */
    void sentUpTo(long sent) {
        bytesSent = sent;
    }

    /** {@return the buffers the engine filled for this socket and the reader has not finished} */
    ReceivedBuffers received() {
        return received;
    }

    /** Engine thread, before the ACCEPTED event publishes this socket. */
    void accepted(InetSocketAddress remote, InetSocketAddress local) {
        this.remote = remote;
        this.local = local;
        this.connectAnswered = true;
    }

    void onConnected(InetSocketAddress localAddress, Throwable f) {
        local = localAddress;
        failure = f;
        connectAnswered = true;
    }

    void onReceived(int buffer, int length) {
        received.attach(buffer, length);
    }

    void onEndOfStream() {
        endOfStream = true;
    }

    void onFailed(Throwable f) {
        failure = f;
    }

    void onClosed() {
        closeAnswered = true;
    }

    private IOException failed(String what) {
        Throwable f = failure;
        SocketException e = new SocketException(what + " failed: the connection " + (remote == null ? "" : "to "
                + remote + " ") + "ended: " + f.getMessage());
        e.initCause(f);
        return e;
    }

    private static void enter(AtomicBoolean flag, String what) {
        if (!flag.compareAndSet(false, true)) {
            throw new IllegalStateException("two threads " + what + " this socket at once; one at a time");
        }
    }
}
