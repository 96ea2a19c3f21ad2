package org.jwarp.engine.io;

import java.io.IOException;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SelectionKey;
import java.nio.channels.SocketChannel;
import org.jwarp.engine.notify.Doorbell;

/**
 * One engine thread's socket I/O, in one layer of {@link IoLayer}:
 * the connections' byte calls ({@link #open}), readiness ({@link #register}, {@link #pollNow}),
 * the batch of a duty cycle ({@link #flush}) and the thread's sleep, which readiness and
 * {@link #wakeup} end ({@link #sleep}; the driver is the thread's {@link Doorbell.Sleeper}). The
 * duty cycle never asks which layer it has: a layer that does not batch flushes nothing.
 *
 * <p>Threads: the owning thread (the engine thread, or the thread running its duty cycle in
 * invoker and hybrid modes) makes every call, except {@link #wakeup} and {@link #wake}, which any
 * thread may make, and {@link #sleep}, which the one thread sleeping for the engine makes (it may
 * overlap a {@link #pollNow} of the thread running the duty cycle).
 *
 * <p>Interest and readiness are {@link SelectionKey}'s bits ({@link #OP_READ} and the others):
 * NIO's readiness is the model, and every layer reports as a level-triggered selector does. A
 * channel is {@link IoRegistration#cancel deregistered} before it is closed: a layer that
 * watches the file descriptor must not watch a number the kernel has given to another socket.
 */
public interface IoDriver extends Doorbell.Sleeper, AutoCloseable {

    /** Bytes to read, or the end of the stream or an error to read. */
    int OP_READ = SelectionKey.OP_READ;
    /** Room to write. */
    int OP_WRITE = SelectionKey.OP_WRITE;
    /** A non-blocking connect completed (or failed): {@code finishConnect} says which. */
    int OP_CONNECT = SelectionKey.OP_CONNECT;
    /** A listening channel has a connection to accept. */
    int OP_ACCEPT = SelectionKey.OP_ACCEPT;

    /** Where {@link #pollNow} hands each ready registration: allocation-free by contract. */
    @FunctionalInterface
    interface ReadyHandler {
        /** {@code readyOps}: the ready bits of the registration's interest, never 0. */
        void ready(Object attachment, int readyOps);

        /** Hands nothing on: a poll made for what the driver notes ({@link IoDriver#takeAcceptReady}). */
        ReadyHandler IGNORE = (attachment, readyOps) -> { };
    }

    /** The layer's name as configured ("nio", "syscalls", "uring", "uring-sqpoll", "uring-direct"). */
    String layer();

    /**
     * A connection's byte calls on {@code channel} (non-blocking, connected) in this layer,
     * bound to this driver ({@code capacity}: the most pieces a call may have). A connection that
     * moves to another engine thread opens again on that thread's driver.
     *
     * @throws UnsupportedOperationException the layer cannot reach the channel's descriptor
     */
    SocketIo open(SocketChannel channel, int capacity);

    /**
     * Watches {@code channel} (non-blocking) for {@code interestOps}; {@link #pollNow} hands
     * {@code attachment} to its handler when the channel is ready for one of them.
     *
     * @throws IOException the layer refused the channel (closed, say)
     */
    IoRegistration register(SelectableChannel channel, int interestOps, Object attachment) throws IOException;

    /**
     * Hands every registration ready now to {@code handler}, without waiting and without
     * allocating; returns how many it handed.
     */
    int pollNow(ReadyHandler handler) throws IOException;

    /**
     * Whether a sleep or a {@link #pollNow} found a channel registered for {@link #OP_ACCEPT} ready
     * since the last call (true once, then false until one is found again): the duty cycle accepts
     * on its listeners' readiness without a system call of its own. Any thread's sleep sets it.
     */
    boolean takeAcceptReady();

    /**
     * Submits what the connections' {@link SocketIo#writeLater} queued in this duty cycle, in one
     * system call, and hands each result to its completion; nothing on a layer that does not batch.
     */
    void flush() throws IOException;

    /**
     * Blocks the calling thread for at most {@code nanos}, until a registered channel is ready or
     * {@link #wakeup} is called; consumes no readiness ({@link #pollNow} still reports it).
     */
    @Override
    void sleep(long nanos);

    /**
     * Any thread: ends a {@link #sleep} under way, or makes the next one return at once.
     */
    void wakeup();

    /** {@link #wakeup}, and unparks {@code sleeper} (a short sleep may be a plain park). */
    @Override
    default void wake(Thread sleeper) {
        wakeup();
        java.util.concurrent.locks.LockSupport.unpark(sleeper);
    }

    /**
     * Whether another thread's {@link #pollNow} runs at once while a thread sleeps here. epoll's
     * readiness is level-triggered and its calls take no lock, so a sleep and a poll overlap;
     * NIO's selector holds its lock through a sleep, so a poll waits until the sleeper was woken.
     */
    default boolean pollsBesideSleep() {
        return false;
    }

    /**
     * How many sleeps have ended (any thread): a change means readiness may have ended one, and
     * the thread running the next duty cycle reads every connection.
     */
    long sleeps();

    /** Owning thread, once the duty cycle has stopped: releases the driver's descriptors. */
    @Override
    void close();
}
