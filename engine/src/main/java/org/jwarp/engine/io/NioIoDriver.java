package org.jwarp.engine.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.CancelledKeyException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.nio.channels.SocketChannel;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

/**
 * {@link IoDriver} over a NIO {@link Selector} and {@link NioSocketIo}. An idle thread sleeps in
 * the selector, so that data arriving on any registered socket wakes it as surely as a doorbell
 * does; sleeps shorter than {@link #SELECT_FROM_NANOS} are plain parks ({@code select} counts in
 * milliseconds and would oversleep them). Selects use the consumer form, which allocates nothing
 * per call (the selected-key set would).
 */
public final class NioIoDriver implements IoDriver {

    static final long SELECT_FROM_NANOS = 200_000;

    private final Selector selector;
    private final LongSupplier deregistrations;
    private final Consumer<SelectionKey> ignore = key -> { };
    private final AcceptReadiness acceptReady = new AcceptReadiness();
    /** A sleep hands nothing on, but notes a listener it found ready ({@link #takeAcceptReady}). */
    private final Consumer<SelectionKey> noteAccept = key -> {
        if (key.isValid() && (key.readyOps() & key.interestOps() & OP_ACCEPT) != 0) {
            acceptReady.note();
        }
    };
    private ReadyHandler handler;
    private int handed;
    private final Consumer<SelectionKey> onKey = key -> {
        if (key.isValid()) {
            int ready = key.readyOps() & key.interestOps();
            if ((ready & OP_ACCEPT) != 0) {
                acceptReady.note();
            }
            if (ready != 0) {
                handed++;
                handler.ready(key.attachment(), ready);
            }
        }
    };
    /** Sleeps ended; whichever thread runs the next duty cycle reads it (hybrid: not the sleeper). */
    private volatile long sleeps;

    /**
     * @param deregistrations a count that changes whenever memory the connections' buffer views
     *                        may cover is released ({@link NioSocketIo})
     */
    public NioIoDriver(LongSupplier deregistrations) {
        this.deregistrations = deregistrations;
        try {
            selector = Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a selector for an engine thread", e);
        }
    }

    @Override
    public String layer() {
        return "nio";
    }

    @Override
    public SocketIo open(SocketChannel channel, int capacity) {
        return new NioSocketIo(channel, capacity, deregistrations);
    }

    @Override
    public IoRegistration register(SelectableChannel channel, int interestOps, Object attachment)
            throws IOException {
        try {
            return new Key(channel.register(selector, interestOps, attachment));
        } catch (CancelledKeyException movedBackTooSoon) {
            // the channel left this selector and came back before a select dropped its old key: drop it now
            selector.selectNow(ignore);
            return new Key(channel.register(selector, interestOps, attachment));
        }
    }

    @Override
    public int pollNow(ReadyHandler h) throws IOException {
        handler = h;
        handed = 0;
        selector.selectNow(onKey);
        handler = null;
        return handed;
    }

    @Override
    public boolean takeAcceptReady() {
        return acceptReady.take();
    }

    @Override
    public void flush() {
    }

    @Override
    public void sleep(long nanos) {
        try {
            if (nanos < SELECT_FROM_NANOS) {
                LockSupport.parkNanos(nanos);
                return;
            }
            selector.select(noteAccept, Math.max(1, nanos / 1_000_000));
        } catch (ClosedSelectorException deviceClosed) {
            // the device closed while a waiting thread idled here: the wait goes on without a sleep
        } catch (IOException e) {
            throw new UncheckedIOException("engine selector failed", e);
        } finally {
            sleeps++;   // one sleeper at a time: the engine thread, or the thread holding the invoked cycle
        }
    }

    @Override
    public void wakeup() {
        selector.wakeup();
    }

    @Override
    public long sleeps() {
        return sleeps;
    }

    @Override
    public void close() {
        try {
            selector.close();
        } catch (IOException e) {
            throw new UncheckedIOException("closing the engine selector failed", e);
        }
    }

    /** A registration is the channel's selection key. */
    private record Key(SelectionKey key) implements IoRegistration {

        @Override
        public int interestOps() {
            return key.isValid() ? key.interestOps() : 0;
        }

        @Override
        public void interestOps(int ops) throws IOException {
            try {
                key.interestOps(ops);
            } catch (CancelledKeyException e) {
                throw new IOException("the channel's registration was cancelled (closed?)", e);
            }
        }

        @Override
        public Object attachment() {
            return key.attachment();
        }

        @Override
        public boolean isValid() {
            return key.isValid();
        }

        @Override
        public void cancel() {
            key.cancel();
        }
    }
}
