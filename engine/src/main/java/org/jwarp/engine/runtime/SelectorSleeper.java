package org.jwarp.engine.runtime;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.ClosedSelectorException;
import java.nio.channels.SelectionKey;
import java.nio.channels.Selector;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.jwarp.engine.notify.Doorbell;

/**
 * How an idle engine thread sleeps: in its {@link Selector}, so that data arriving on any of its
 * sockets wakes it as surely as a doorbell does (a plain park cannot see socket readiness, which
 * cost ~1 ms per hop in dedicated mode). Sleeps shorter than {@link #SELECT_FROM_NANOS} are plain
 * parks: {@code select} counts in milliseconds and would oversleep them. The select uses the
 * consumer form, which allocates nothing per wake-up (the selected-key set would).
 */
final class SelectorSleeper implements Doorbell.Sleeper {

    static final long SELECT_FROM_NANOS = 200_000;

    private final Selector selector;
    private final Consumer<SelectionKey> ignore = key -> { };

    SelectorSleeper() {
        try {
            selector = Selector.open();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open a selector for an engine thread", e);
        }
    }

    Selector selector() {
        return selector;
    }

    /** Sleeps taken; whichever thread runs the next duty cycle reads it (hybrid: not the sleeper). */
    private volatile long sleeps;

    /** How many times a thread has slept here: a change means a socket may have woken it. */
    long sleeps() {
        return sleeps;
    }

    @Override
    public void sleep(long nanos) {
        try {
            if (nanos < SELECT_FROM_NANOS) {
                LockSupport.parkNanos(nanos);
                return;
            }
            selector.select(ignore, Math.max(1, nanos / 1_000_000));
        } catch (ClosedSelectorException deviceClosed) {
            // the device closed while a waiting thread idled here: the wait goes on without a sleep
        } catch (IOException e) {
            throw new UncheckedIOException("engine selector failed", e);
        } finally {
            sleeps++;   // one sleeper at a time: the engine thread, or the thread holding the invoked cycle
        }
    }

    @Override
    public void wake(Thread sleeper) {
        selector.wakeup();
        LockSupport.unpark(sleeper);
    }

    void close() {
        try {
            selector.close();
        } catch (IOException e) {
            throw new UncheckedIOException("closing the engine selector failed", e);
        }
    }
}
