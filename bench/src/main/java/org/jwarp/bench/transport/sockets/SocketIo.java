package org.jwarp.bench.transport.sockets;

import java.io.IOException;
import java.net.StandardSocketOptions;
import java.nio.ByteBuffer;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import org.jwarp.bench.perf.PerfException;
import org.jwarp.bench.perf.TransportKind;

/**
 * One TCP connection of a sockets test, waiting the way its transport says: blocking
 * ({@code read}/{@code write} sleep in the kernel), NIO (non-blocking, sleeping in
 * {@code Selector.select} when a call makes no progress), or busy-poll (non-blocking, retrying at
 * once, or yielding the CPU first when the run has more busy threads than CPUs). TCP_NODELAY is on, as in the jwarp engine. A wait that makes no progress for
 * {@link #STALL_NANOS} fails with one line (NIO and busy-poll; a blocking wait ends when the
 * connection does).
 */
final class SocketIo implements AutoCloseable {

    static final long STALL_NANOS = 30_000_000_000L;

    final SocketChannel channel;
    private final TransportKind mode;
    private final Selector selector;
    private final SelectionKey key;
    private final boolean yield;
    /** The warm-up pass runs: idle turns yield (see {@link org.jwarp.bench.perf.Session#warmingUp}). */
    volatile boolean warmingUp;
    private int idleTurns;
    private long stallSince;

    SocketIo(SocketChannel channel, TransportKind mode, boolean yieldWhenIdle) throws IOException {
        this.channel = channel;
        this.mode = mode;
        this.yield = yieldWhenIdle;
        channel.setOption(StandardSocketOptions.TCP_NODELAY, true);
        channel.configureBlocking(mode == TransportKind.SOCKETS_BLOCKING);
        if (mode == TransportKind.SOCKETS_NIO) {
            selector = Selector.open();
            key = channel.register(selector, 0);
        } else {
            selector = null;
            key = null;
        }
    }

    /** Writes all of {@code b}. */
    void writeFully(ByteBuffer b) {
        try {
            while (b.hasRemaining()) {
                if (channel.write(b) == 0) {
                    idle(SelectionKey.OP_WRITE);
                } else {
                    stallSince = 0;
                }
            }
        } catch (IOException e) {
            throw lost(e);
        }
    }

    /** Fills {@code b}. */
    void readFully(ByteBuffer b) {
        try {
            while (b.hasRemaining()) {
                int n = channel.read(b);
                if (n < 0) {
                    throw new PerfException("the peer closed the connection");
                }
                if (n == 0) {
                    idle(SelectionKey.OP_READ);
                } else {
                    stallSince = 0;
                }
            }
        } catch (IOException e) {
            throw lost(e);
        }
    }

    private void idle(int op) throws IOException {
        if (mode == TransportKind.SOCKETS_NIO) {
            key.interestOps(op);
            selector.select(100);
            selector.selectedKeys().clear();
            checkStall();
        } else {
            if (yield | (warmingUp & (idleTurns & 1) == 0)) { // no short circuit: see Waiter
                Thread.yield();
            } else {
                Thread.onSpinWait();
            }
            if ((++idleTurns & 0xFFFF) == 0) {
                checkStall();
            }
        }
    }

    private void checkStall() {
        long now = System.nanoTime();
        if (stallSince == 0) {
            stallSince = now;
        } else if (now - stallSince > STALL_NANOS) {
            throw new PerfException("nothing moved on the connection for " + STALL_NANOS / 1_000_000_000L
                    + " s: the peer stopped");
        }
    }

    static PerfException lost(IOException e) {
        return new PerfException("the connection to the peer was lost (" + e.getMessage() + ")");
    }

    @Override
    public void close() {
        try {
            if (selector != null) {
                selector.close();
            }
            channel.close();
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }
}
