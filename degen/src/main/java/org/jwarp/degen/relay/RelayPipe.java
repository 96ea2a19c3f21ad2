package org.jwarp.degen.relay;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SocketChannel;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.locks.LockSupport;
import org.jwarp.degen.LinkModel;
import org.jwarp.degen.LinkParams;

/**
 * One direction of a relayed connection: a reader thread timestamps each chunk as it is read and
 * asks the {@link LinkModel} when it is due; a writer thread writes it out at that time. Chunks
 * come from a fixed pool, so a slow or delayed direction pushes back on the sender through TCP's
 * own flow control instead of growing memory. The model is owned by the reader thread; the two
 * threads meet only through the two bounded queues.
 */
final class RelayPipe {

    private static final int CHUNK = 16 * 1024;
    private static final int CHUNKS = 256;
    private static final long SPIN_NANOS = 100_000L;

    private static final class Chunk {
        final ByteBuffer buf = ByteBuffer.allocateDirect(CHUNK);
        long due;
        boolean eof;
    }

    private final SocketChannel from;
    private final SocketChannel to;
    private final LinkModel model;
    private final BlockingQueue<Chunk> free = new ArrayBlockingQueue<>(CHUNKS);
    private final BlockingQueue<Chunk> full = new ArrayBlockingQueue<>(CHUNKS);
    private final Thread reader;
    private final Thread writer;
    private final Runnable onFinished;

    private RelayPipe(String name, SocketChannel from, SocketChannel to, LinkParams params, long seed, Runnable onFinished) {
        this.onFinished = onFinished;
        this.from = from;
        this.to = to;
        this.model = new LinkModel(params, seed);
        for (int i = 0; i < CHUNKS; i++) {
            free.add(new Chunk());
        }
        this.reader = new Thread(this::readLoop, name + "-read");
        this.writer = new Thread(this::writeLoop, name + "-write");
        reader.setDaemon(true);
        writer.setDaemon(true);
    }

    /** Starts both threads; {@code onFinished} runs once this direction has delivered its EOF. */
    static RelayPipe start(String name, SocketChannel from, SocketChannel to, LinkParams params, long seed, Runnable onFinished) {
        RelayPipe p = new RelayPipe(name, from, to, params, seed, onFinished);
        p.reader.start();
        p.writer.start();
        return p;
    }

    private void readLoop() {
        try {
            while (true) {
                Chunk c = free.take();
                c.buf.clear();
                int n = from.read(c.buf);
                long arrival = System.nanoTime();
                c.eof = n < 0;
                if (n > 0) {
                    model.admit(arrival, n); // no loss configured, so always accepted
                    c.due = model.due();
                } else {
                    c.due = arrival + model.params().delayNanos();
                }
                c.buf.flip();
                full.put(c);
                if (c.eof) {
                    return;
                }
            }
        } catch (IOException e) {
            // The peer reset or the relay closed: end this direction like an EOF would.
            endWith(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private void endWith(IOException cause) {
        Chunk c = new Chunk();
        c.eof = true;
        c.due = System.nanoTime();
        if (!full.offer(c)) {
            System.err.println("jwarp relay: " + reader.getName() + " ended (" + cause.getMessage() + ") with a full queue");
        }
    }

    private void writeLoop() {
        try {
            while (true) {
                Chunk c = full.take();
                waitUntil(c.due);
                if (c.eof) {
                    to.shutdownOutput();
                    onFinished.run();
                    return;
                }
                while (c.buf.hasRemaining()) {
                    to.write(c.buf);
                }
                free.put(c);
            }
        } catch (IOException e) {
            // The receiving side is gone; stop reading this direction too.
            close();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static void waitUntil(long due) {
        long left;
        while ((left = due - System.nanoTime()) > SPIN_NANOS) {
            LockSupport.parkNanos(left - SPIN_NANOS);
        }
        while (due - System.nanoTime() > 0) {
            Thread.onSpinWait();
        }
    }

    void close() {
        for (SocketChannel ch : new SocketChannel[] {from, to}) {
            try {
                ch.close();
            } catch (IOException e) {
                System.err.println("jwarp relay: closing a connection failed: " + e.getMessage());
            }
        }
    }
}
