package org.jwarp.engine.toe;

import java.io.InterruptedIOException;
import java.lang.invoke.VarHandle;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReferenceArray;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.jwarp.engine.agent.EngineSlot;
import org.jwarp.engine.ring.MpscSlotRing;
import org.jwarp.sys.NanoClock;

/**
 * A request/event queue pair (seed 001 §III): one per host thread, so that a thread posts to its
 * own queue with no contention. The sockets a thread opens or accepts live on its queue pair: their
 * requests go to its request queue (several threads may post to it, in order, when a socket is
 * handed to another thread) and their events come back on its event queue.
 *
 * <p>Threads: the host posts requests and rings the engine's doorbell ({@link #post}); the engine
 * thread of {@link #engine} takes requests and posts events, then raises an emulated interrupt
 * ({@link #interrupt()}) — it unparks the host threads that sleep on this queue pair, and only
 * those. Whichever host thread needs progress takes the events ({@link #drain()}, one thread at a
 * time) and attaches each to its socket or listener, as the paper's interrupt routine does.
 */
final class HostQueuePair {

    /** Host threads that can sleep on one queue pair at once with a precise wake-up; more poll every 100 µs. */
    private static final int WAITER_SLOTS = 16;
    private static final long POLL_NANOS = 100_000;

    private final MpscSlotRing<Request> requests;
    private final MpscSlotRing<Event> events;
    private final ToeEngine engine;
    private final EngineSlot slot;
    private final AtomicBoolean draining = new AtomicBoolean();
    private final AtomicReferenceArray<Thread> waiters = new AtomicReferenceArray<>(WAITER_SLOTS);
    private final AtomicInteger sleepers = new AtomicInteger();

    /** Engine thread: when the events posted are followed by an interrupt. */
    private final InterruptModeration moderation;
    /** Emulated interrupts raised (written by the engine thread only). */
    private volatile long interrupts;
    /** Events the host took (written under the drain flag only). */
    private volatile long eventsTaken;
    /** Times a host thread found the request queue full and waited. */
    private final AtomicInteger requestQueueFull = new AtomicInteger();

    HostQueuePair(ToeEngine engine, int depth) {
        this.engine = engine;
        this.slot = engine.slot();
        this.requests = new MpscSlotRing<>(depth, Request::new);
        this.events = new MpscSlotRing<>(depth, Event::new);
        this.moderation = new InterruptModeration(engine.config());
    }

    /**
     * Host, any thread: posts a request and rings the doorbell. A full queue makes the caller wait
     * for the engine to take requests (the engine runs meanwhile, so the wait ends).
     *
     * @throws java.io.IOException if the engine is gone
     */
    void post(Request.Kind kind, ToeSocket socket, ToeServerSocket listener, long value,
              java.net.SocketAddress address) throws java.io.IOException {
        long c;
        while ((c = requests.claim()) < 0) {
            engine.checkAlive();
            requestQueueFull.incrementAndGet();
            slot.ring();
            if (slot.hostRunsEngine()) {
                try {
                    slot.runUntil(() -> !isRequestQueueFull(), 1, TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    throw new InterruptedIOException("interrupted while the request queue was full");
                }
            } else {
                LockSupport.parkNanos(10_000);
            }
        }
        requests.slot(c).set(kind, socket, listener, value, address);
        requests.publish(c);
        slot.ring();
    }

    /** {@return the engine thread that serves this queue pair} */
    ToeEngine engine() {
        return engine;
    }

    /** Engine thread: the oldest request not yet taken, or null; {@link #requestDone} after handling it. */
    Request nextRequest() {
        return requests.peek();
    }

    /** Engine thread: the request {@link #nextRequest} gave is handled; its slot is free again. */
    void requestDone(Request r) {
        r.clear();
        requests.release();
    }

    /**
     * Engine thread: posts one event; false if the event queue is full (the caller keeps what it
     * owes and tries again next cycle). One interrupt at the end of a cycle covers every event
     * posted since the last one ({@link #interruptIfDue}).
     */
    boolean postEvent(Event.Kind kind, ToeSocket socket, ToeServerSocket listener, int buffer, int length,
                      java.net.InetSocketAddress address, Throwable failure) {
        long c = events.claim();
        if (c < 0) {
            return false;
        }
        events.slot(c).set(kind, socket, listener, buffer, length, address, failure);
        events.publish(c);
        moderation.posted(kind, length);
        return true;
    }

    private boolean isRequestQueueFull() {
        return requests.size() >= requests.capacity();
    }

    /**
     * Host, any thread: takes every ready event and attaches it to its socket or listener (the
     * paper's interrupt routine). If another thread is already doing so, returns at once: that
     * thread wakes the sleepers when it is done.
     */
    void drain() {
        if (events.peek() == null || !draining.compareAndSet(false, true)) {
            return;
        }
        long n = 0;
        try {
            for (Event e = events.peek(); e != null; e = events.peek()) {
                e.deliver();
                e.clear();
                events.release();
                n++;
            }
        } finally {
            eventsTaken += n;
            draining.set(false);
        }
        if (sleepers.get() > 0) {
            wakeSleepers();                         // a sleeper whose drain found the flag taken waits on us
        }
    }

    /**
     * Host thread: waits until {@code ready} holds (checked after taking events) or the engine is
     * gone, for at most {@code timeoutNanos} ({@link Long#MAX_VALUE}: no limit). The thread sleeps
     * until the engine's interrupt, unless no engine thread of its own exists: then it runs the
     * engine's duty cycle meanwhile.
     *
     * @return whether {@code ready} holds
     */
    boolean await(BooleanSupplier ready, long timeoutNanos) throws InterruptedIOException {
        drain();
        if (ready.getAsBoolean()) {
            return true;
        }
        if (slot.hostRunsEngine()) {
            try {
                return slot.runUntil(() -> {
                    drain();
                    return ready.getAsBoolean() || engine.isGone();
                }, timeoutNanos, TimeUnit.NANOSECONDS) && ready.getAsBoolean();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new InterruptedIOException("interrupted while waiting for the offload engine");
            }
        }
        NanoClock clock = slot.clock();
        long deadline = timeoutNanos == Long.MAX_VALUE ? Long.MAX_VALUE : clock.nanoTime() + timeoutNanos;
        Thread me = Thread.currentThread();
        int w = register(me);
        sleepers.incrementAndGet();
        try {
            while (true) {
                drain();
                if (ready.getAsBoolean()) {
                    return true;
                }
                if (engine.isGone()) {
                    return false;
                }
                long left = deadline == Long.MAX_VALUE ? Long.MAX_VALUE : deadline - clock.nanoTime();
                if (left <= 0) {
                    return false;
                }
                LockSupport.parkNanos(this, w < 0 ? Math.min(left, POLL_NANOS) : left);
                if (Thread.interrupted()) {
                    me.interrupt();
                    throw new InterruptedIOException("interrupted while waiting for the offload engine");
                }
            }
        } finally {
            sleepers.decrementAndGet();
            if (w >= 0) {
                waiters.set(w, null);
            }
        }
    }

    private int register(Thread me) {
        for (int i = 0; i < WAITER_SLOTS; i++) {
            if (waiters.get(i) == null && waiters.compareAndSet(i, null, me)) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Engine thread, at the end of each duty cycle that started at {@code now}: the emulated
     * interrupt, if events were posted here and {@link InterruptModeration} says it is due. Nothing
     * happens unless a host thread sleeps on this queue pair.
     */
    void interruptIfDue(long now) {
        if (!moderation.due(now)) {
            return;
        }
        VarHandle.fullFence();                      // the events' publication before the sleepers' count (Dekker)
        if (sleepers.get() > 0) {
            interrupts++;
            wakeSleepers();
        }
    }

    /** Engine thread: when a held interrupt is raised without further events, or {@link Long#MAX_VALUE}. */
    long interruptDeadline() {
        return moderation.deadline();
    }

    /** Engine gone: wakes every sleeper, which then sees it. */
    void wakeAll() {
        wakeSleepers();
    }

    private void wakeSleepers() {
        for (int i = 0; i < WAITER_SLOTS; i++) {
            Thread t = waiters.get(i);
            if (t != null) {
                LockSupport.unpark(t);
            }
        }
    }

    long interrupts() {
        return interrupts;
    }

    long eventsTaken() {
        return eventsTaken;
    }

    int requestQueueFullCount() {
        return requestQueueFull.get();
    }
}
