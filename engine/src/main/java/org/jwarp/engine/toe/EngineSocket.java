package org.jwarp.engine.toe;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.ClosedChannelException;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;

/**
 * The engine's side of one offloaded socket (seed 001 Fig. 3: host and engine keep their own
 * per-connection structures). Owned by one engine thread: it makes every system call on the
 * socket, sends from the host's send buffer, fills anonymous buffers, and keeps the events it owes
 * the host until the event queue takes them.
 */
final class EngineSocket {

    private final ToeEngine engine;
    final ToeSocket host;
    private final AnonymousPool pool;
    private final ByteBuffer sendView;
    private final int sendCapacity;
    private final int sendMask;
    private final int share;
    private final long fillTimeoutNanos;

    private SocketChannel channel;
    private SelectionKey key;
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

    /** The anonymous buffer being filled, or -1; when its first byte came. */
    private int filling = -1;
    private long firstByteAt;
    /** A filled buffer the event queue has not taken yet, or -1. */
    private int ready = -1;
    private int readyLength;
    private long buffersPosted;
    private boolean inputEnded;

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
        this.sendView = host.sendEngineView;
        this.sendCapacity = sendView.capacity();
        this.sendMask = sendCapacity - 1;
        this.share = engine.config().buffersPerSocket();
        this.fillTimeoutNanos = engine.config().fillTimeoutNanos();
        host.engineSide = this;
    }

    /** CONNECT: a non-blocking connect; its answer is owed from now on. */
    void connect(InetSocketAddress to) {
        owesConnected = true;
        try {
            channel = SocketChannel.open();
            channel.configureBlocking(false);
            channel.setOption(StandardSocketOptions.TCP_NODELAY, engine.config().tcpNoDelay());
            connecting = !channel.connect(to);
            key = channel.register(engine.slot().selector(), connecting ? SelectionKey.OP_CONNECT : 0, this);
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
        key = channel.register(engine.slot().selector(), 0, this);
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
        if (ready >= 0) {
            pool.give(ready);                       // the host will never read it
            ready = -1;
        }
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
        int work = 0;
        while (sent < requested) {
            int pos = (int) (sent & sendMask);
            int n = (int) Math.min(requested - sent, sendCapacity - pos);
            sendView.limit(pos + n).position(pos);
            int w;
            try {
                w = channel.write(sendView);
            } catch (IOException | RuntimeException e) {
                fail(e);
                return work + 1;
            }
            if (w == 0) {
                writeInterest(true);
                return work;
            }
            sent += w;
            host.bytesSent = sent;                  // the mirrored cumulative count: no event per send
            engine.sentBytes(w);
            work++;
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
        int work = 0;
        for (int round = 0; round < 4 && !inputEnded && ready < 0; round++) {
            if (filling < 0 && !takeBuffer()) {
                break;
            }
            ByteBuffer view = pool.engineView(filling);
            int r;
            try {
                r = channel.read(view);
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
            if (r == 0) {
                if (view.position() == 0) {
                    pool.give(filling);             // an empty buffer goes back: an idle socket holds none
                    filling = -1;
                }
                break;
            }
            if (view.position() == r) {
                firstByteAt = now;
            }
            engine.receivedBytes(r);
            work++;
            if (!view.hasRemaining()) {
                passOn(view.position());
            }
        }
        if (filling >= 0 && ready < 0) {
            int length = pool.engineView(filling).position();
            if (length > 0 && (inputEnded || now - firstByteAt >= fillTimeoutNanos)) {
                passOn(length);
            } else if (length == 0 && inputEnded) {
                pool.give(filling);
                filling = -1;
            }
        }
        return work;
    }

    /** A buffer to fill, if the pool has one and this socket holds less than its share. */
    private boolean takeBuffer() {
        if (buffersPosted - host.buffersReturned >= share) {
            host.rxStalled = true;                  // the host rings once it gives one back
            if (buffersPosted - host.buffersReturned >= share) {
                readInterest(false);
                return false;
            }
            host.rxStalled = false;
        }
        filling = pool.take();
        if (filling < 0) {
            readInterest(false);
            engine.starvedSocket();
            return false;
        }
        pool.engineView(filling).clear();
        readInterest(true);
        return true;
    }

    private void passOn(int length) {
        ready = filling;
        readyLength = length;
        filling = -1;
    }

    /** Posts what the host is owed, in order, as far as the event queue takes it. */
    private int emit() {
        int work = 0;
        HostQueuePair q = host.home;
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
        if (ready >= 0) {
            if (!engine.post(q, Event.Kind.RECEIVED, host, null, ready, readyLength, null, null)) {
                return work;
            }
            ready = -1;
            buffersPosted++;
            work++;
        }
        if (owesSent) {
            if (!engine.post(q, Event.Kind.SENT, host, null, -1, 0, null, null)) {
                return work;
            }
            owesSent = false;
            work++;
        }
        if (inputEnded && filling < 0 && ready < 0 && !endPosted && failure == null && !closeAsked) {
            if (!engine.post(q, Event.Kind.END_OF_STREAM, host, null, -1, 0, null, null)) {
                return work;
            }
            endPosted = true;
            work++;
        }
        if (owesFailure && ready < 0) {
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
        if (filling >= 0) {
            int length = pool.engineView(filling).position();
            if (length > 0 && ready < 0) {
                passOn(length);                     // bytes received before the failure still reach the host
            } else {
                pool.give(filling);
                filling = -1;
            }
        }
        closeChannel();
    }

    /** Engine thread: every resource goes (the socket is done, or the engine stops). */
    void release() {
        closeChannel();
        if (filling >= 0) {
            pool.give(filling);
            filling = -1;
        }
        if (ready >= 0) {
            pool.give(ready);
            ready = -1;
        }
        finished = true;
    }

    private void closeChannel() {
        engine.close(key, channel);
    }

    boolean finished() {
        return finished;
    }

    /** When this socket needs the engine next without any I/O event: a fill timeout or a linger's end. */
    long deadline() {
        if (closeAsked && !finished) {
            return lingerDeadline;
        }
        if (filling >= 0 && ready < 0 && pool.engineView(filling).position() > 0) {
            return firstByteAt + fillTimeoutNanos;
        }
        return Long.MAX_VALUE;
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
        if (key != null && key.isValid()) {
            key.interestOps((wantRead ? SelectionKey.OP_READ : 0) | (wantWrite ? SelectionKey.OP_WRITE : 0)
                    | (connecting ? SelectionKey.OP_CONNECT : 0));
        }
    }
}
