package org.jwarp.engine.toe;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SocketChannel;
import org.jwarp.engine.io.IoDriver;
import org.jwarp.engine.io.IoRegistration;
import org.jwarp.engine.io.IoVector;
import org.jwarp.engine.io.SocketIo;
import org.jwarp.engine.io.Staging;

/**
 * The engine's side of one offloaded socket (seed 001 Fig. 3: host and engine keep their own
 * per-connection structures). Owned by one engine thread: it makes every system call on the
 * socket, through the engine's I/O driver in the device's socket I/O layer, sends from the host's
 * send buffer, fills anonymous buffers, and keeps the events it owes the host until the event
 * queue takes them.
 *
 * <p>Batching: whatever the host has written goes out in one gathered write (both pieces of the
 * send ring when it wraps), and one scattered read fills the buffer under way and as many fresh
 * ones as {@link HeldBuffers#SCATTER_BYTES} covers, within the socket's share; every buffer filled
 * is owed to the host in the same duty cycle, so the host's reader finds several buffers per wake-up.
 */
final class EngineSocket {

    /**
     * Scattered reads per socket per duty cycle: what one read filled is posted, and the host
     * woken, before the next read, so that the host copies while the engine reads on; reading the
     * whole share first would leave host and engine taking turns.
     */
    static final int READS_PER_CYCLE = 1;

    private final ToeEngine engine;
    private final ToeSocket host;
    private final AnonymousPool pool;
    private final Staging sendBuffer;
    private final int sendCapacity;
    private final int sendMask;
    private final long fillTimeoutNanos;
    private final IoVector tx = new IoVector(2);
    private final IoVector rx = new IoVector(HeldBuffers.pieces());
    private final HeldBuffers buffers;

    private SocketChannel channel;
    private SocketIo io;
    private IoRegistration registration;
    private boolean connecting;
    private boolean wantRead;
    private boolean wantWrite;

    /** Bytes the host has handed over by SEND descriptors, and bytes passed to TCP. */
    private long requested;
    private long sent;
    /** A NOTIFY_SENT target not yet reached, or -1. */
    private long notifyTarget = -1;
    private boolean shutdownAsked;
    private boolean outputDone;

    private boolean inputEnded;
    /** The last read found nothing waiting: the next waits for {@link ToeEngine#retryIdle()}. */
    private boolean readFoundNothing;
    /** The last write found the socket full: the next waits for {@link ToeEngine#retryIdle()}. */
    private boolean sendFull;

    /** Events owed to the host, posted in this order as the event queue takes them. */
    private boolean owesConnected;
    private boolean owesSent;
    private boolean endPosted;
    private boolean owesFailure;
    private boolean owesClosed;
    private Throwable failure;

    /** After the host's close: sending what was written, until this deadline. */
    private boolean closeAsked;
    private long lingerDeadline;
    private boolean finished;

    EngineSocket(ToeEngine engine, ToeSocket host) {
        this.engine = engine;
        this.host = host;
        this.pool = engine.pool();
        MemorySegment memory = host.sendMemory();
        this.sendBuffer = new Staging(memory.asByteBuffer(), memory);
        this.sendCapacity = (int) memory.byteSize();
        this.sendMask = sendCapacity - 1;
        this.fillTimeoutNanos = engine.config().fillTimeoutNanos();
        this.buffers = new HeldBuffers(pool, host.received(), engine.config().buffersPerSocket());
        host.attach(this);
    }

    /** CONNECT: a non-blocking connect; its answer is owed from now on. */
    void connect(InetSocketAddress to) {
        owesConnected = true;
        try {
            channel = SocketChannel.open();
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, engine.config().tcpNoDelay());
            connecting = !channel.connect(to);
            IoDriver driver = engine.driver();
            io = driver.open(channel, rx.capacity());
            registration = driver.register(channel, connecting ? IoDriver.OP_CONNECT : 0, this);
            if (!connecting) {
                opened();
            }
        } catch (IOException | RuntimeException e) {
            fail(e);
        }
    }

    /** An accepted channel (the listener's engine thread). */
    void adopt(SocketChannel accepted) throws IOException {
        channel = accepted;
        channel.configureBlocking(false);
        channel.setOption(StandardSocketOptions.TCP_NODELAY, engine.config().tcpNoDelay());
        IoDriver driver = engine.driver();
        io = driver.open(channel, rx.capacity());
        registration = driver.register(channel, 0, this);
        host.accepted((InetSocketAddress) channel.getRemoteAddress(), (InetSocketAddress) channel.getLocalAddress());
        readInterest(true);
    }

    InetSocketAddress localAddress() throws IOException {
        return (InetSocketAddress) channel.getLocalAddress();
    }

    private void opened() throws IOException {
        connecting = false;
        readInterest(true);
    }

    // ------------------------------------------------------------------ requests

    void onSend(long bytes) {
        requested += bytes;
    }

    void onNotifySent(long target) {
        notifyTarget = target;
        if (sent >= target || failure != null) {
            owesSent = true;
            notifyTarget = -1;
        }
    }

    void onShutdownOutput() {
        shutdownAsked = true;
    }

    void onClose(long nowNanos) {
        closeAsked = true;
        owesClosed = true;
        lingerDeadline = nowNanos + engine.config().closeLingerMillis() * 1_000_000L;
        readInterest(false);
        buffers.giveOwed();                         // the host will never read them
        buffers.giveSpares();
    }

    // ------------------------------------------------------------------ duty cycle

    /** One pass; returns the work done. */
    int doWork(long now) {
        int work = 0;
        if (connecting) {
            work += finishConnect();
        }
        if (channel != null && channel.isOpen() && !connecting) {
            work += transmit();
            if (!closeAsked) {
                work += receive(now);
            }
        }
        work += emit();
        if (closeAsked && !owesClosed) {
            work += linger(now);
        }
        return work;
    }

    private int finishConnect() {
        try {
            if (!channel.finishConnect()) {
                return 0;
            }
            opened();
        } catch (IOException | RuntimeException e) {
            fail(e);
        }
        return 1;
    }

    private int transmit() {
        if (sendFull && !engine.retryIdle()) {
            return 0;
        }
        int work = 0;
        while (sent < requested) {
            int pos = (int) (sent & sendMask);
            long n = requested - sent;
            long first = Math.min(n, sendCapacity - pos);
            tx.clear();
            tx.add(sendBuffer, pos, first);
            tx.add(sendBuffer, 0, n - first);       // the ring's wrap: one gathered write
            long w;
            try {
                w = io.write(tx);
            } catch (IOException | RuntimeException e) {
                fail(e);
                return work + 1;
            }
            sendFull = w < n;
            if (w == 0) {
                writeInterest(true);
                return work;
            }
            sent += w;
            host.sentUpTo(sent);                    // the mirrored cumulative count: no event per send
            engine.sentBytes((int) w);
            work++;
            if (notifyTarget >= 0 && sent >= notifyTarget) {
                notifyTarget = -1;                  // the writer waiting for room wakes now, not once all is sent
                owesSent = true;
            }
            if (w < n) {
                writeInterest(true);                // the socket took part: it is full
                return work;
            }
        }
        writeInterest(false);
        if (notifyTarget >= 0 && sent >= notifyTarget) {
            notifyTarget = -1;
            owesSent = true;
        }
        if (shutdownAsked && !outputDone) {
            outputDone = true;
            try {
                channel.shutdownOutput();
            } catch (IOException e) {
                fail(e);
            }
            work++;
        }
        return work;
    }

    private int receive(long now) {
        if (readFoundNothing && !engine.retryIdle()) {
            return buffers.settle(now, fillTimeoutNanos, false) ? 1 : 0;
        }
        int work = 0;
        for (int round = 0; round < READS_PER_CYCLE && !inputEnded; round++) {
            long room = buffers.prepare(rx);
            if (room == 0) {
                readInterest(false);                // until the host reads a buffer, or gives one back
                if (buffers.starved()) {
                    engine.starvedSocket();
                }
                break;
            }
            readInterest(true);
            long r;
            try {
                r = io.read(rx);
            } catch (IOException | RuntimeException e) {
                fail(e);
                return work + 1;
            }
            if (r < 0) {
                inputEnded = true;
                readInterest(false);
                work++;
                break;
            }
            readFoundNothing = r == 0;
            if (r == 0) {
                buffers.giveSpares();               // an idle socket holds no fresh buffers
                break;
            }
            engine.receivedBytes((int) r);
            work++;
            buffers.filled(r, now);
            if (r < room) {
                break;                              // the socket has no more now
            }
        }
        buffers.settle(now, fillTimeoutNanos, inputEnded);
        if (inputEnded) {
            buffers.giveSpares();
        }
        return work;
    }

    /** Posts what the host is owed, in order, as far as the event queue takes it. */
    private int emit() {
        int work = 0;
        HostQueuePair q = host.home();
        if (owesConnected) {
            InetSocketAddress local = null;
            if (failure == null && !connecting) {
                try {
                    local = localAddress();
                } catch (IOException e) {
                    fail(e);
                }
            }
            if (connecting && failure == null) {
                return work;                        // still connecting: nothing else is owed yet
            }
            if (!engine.post(q, Event.Kind.CONNECTED, host, null, -1, 0, local, failure)) {
                return work;
            }
            owesConnected = false;
            work++;
        }
        while (buffers.owes()) {
            if (!engine.post(q, Event.Kind.RECEIVED, host, null, buffers.owedBuffer(), buffers.owedLength(), null,
                    null)) {
                return work;
            }
            buffers.posted();
            work++;
        }
        if (owesSent) {
            if (!engine.post(q, Event.Kind.SENT, host, null, -1, 0, null, null)) {
                return work;
            }
            owesSent = false;
            work++;
        }
        if (inputEnded && buffers.drained() && !endPosted && failure == null && !closeAsked) {
            if (!engine.post(q, Event.Kind.END_OF_STREAM, host, null, -1, 0, null, null)) {
                return work;
            }
            endPosted = true;
            work++;
        }
        if (owesFailure && !buffers.owes()) {
            if (!engine.post(q, Event.Kind.FAILED, host, null, -1, 0, null, failure)) {
                return work;
            }
            owesFailure = false;
            work++;
        }
        if (owesClosed) {
            if (!engine.post(q, Event.Kind.CLOSED, host, null, -1, 0, null, null)) {
                return work;
            }
            owesClosed = false;
            work++;
        }
        return work;
    }

    /** After CLOSED: keeps sending what was written, then closes; gives up at the linger deadline. */
    private int linger(long now) {
        boolean drained = channel == null || !channel.isOpen() || failure != null || (sent == requested && !connecting);
        if (!drained && now - lingerDeadline < 0) {
            return 0;
        }
        release();
        return 1;
    }

    /** The connection failed: no more I/O; the host is told after the data it already has. */
    private void fail(Throwable e) {
        if (failure != null) {
            return;
        }
        failure = e instanceof ClosedChannelException ? new IOException("the socket was closed", e) : e;
        owesFailure = !owesConnected;             // a failed connect is answered by CONNECTED itself
        engine.failedSocket();
        buffers.failed();                           // bytes received before the failure still reach the host
        closeChannel();
    }

    /** Engine thread: every resource goes (the socket is done, or the engine stops). */
    void release() {
        closeChannel();
        buffers.release();
        finished = true;
    }

    private void closeChannel() {
        engine.close(registration, channel);
    }

    boolean finished() {
        return finished;
    }

    /** When this socket needs the engine next without any I/O event: a fill timeout or a linger's end. */
    long deadline() {
        if (closeAsked && !finished) {
            return lingerDeadline;
        }
        return buffers.deadline(fillTimeoutNanos);
    }

    private void readInterest(boolean on) {
        if (on != wantRead) {
            wantRead = on;
            updateInterest();
        }
    }

    private void writeInterest(boolean on) {
        if (on != wantWrite) {
            wantWrite = on;
            updateInterest();
        }
    }

    private void updateInterest() {
        if (registration != null && registration.isValid()) {
            try {
                registration.interestOps((wantRead ? IoDriver.OP_READ : 0) | (wantWrite ? IoDriver.OP_WRITE : 0)
                        | (connecting ? IoDriver.OP_CONNECT : 0));
            } catch (IOException e) {
                fail(e);
            }
        }
    }
}
