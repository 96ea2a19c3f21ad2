package org.jwarp.engine.toe;

import java.io.IOException;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import org.jwarp.engine.agent.EngineSlot;
import org.jwarp.engine.agent.EngineTenant;
import org.jwarp.engine.io.IoDriver;
import org.jwarp.engine.io.IoRegistration;

/**
 * The offload engine's side of the offloaded sockets on one engine thread (seed 001 §III): it
 * takes the requests of the host queue pairs it serves, carries out every socket operation, fills
 * anonymous buffers, posts events and raises the emulated interrupts. All state is owned by the
 * engine thread; other threads reach it through the queue pairs and the doorbell.
 */
final class ToeEngine implements EngineTenant {

    private final EngineSlot slot;
    private final ToeConfig config;
    private final AnonymousPool pool;
    /** Queue pairs made by host threads, joining at the next duty cycle. */
    private final ConcurrentLinkedQueue<HostQueuePair> joining = new ConcurrentLinkedQueue<>();
    private final List<HostQueuePair> pairs = new ArrayList<>();
    private final List<EngineSocket> sockets = new ArrayList<>();
    private final List<EngineListener> listeners = new ArrayList<>();
    /** Why the engine no longer serves (stopped or failed); null while it does. */
    private volatile IOException gone;
    private long deadline = Long.MAX_VALUE;

    private volatile long requestsTaken;
    private volatile long eventsPosted;
    private volatile long bytesSent;
    private volatile long bytesReceived;
    private volatile long socketFailures;
    private volatile long starvedReads;
    private volatile long eventQueueFull;

    ToeEngine(EngineSlot slot, ToeConfig config) {
        this.slot = slot;
        this.config = config;
        this.pool = new AnonymousPool(config.receiveBufferBytes(), config.receiveBuffers());
    }

    EngineSlot slot() {
        return slot;
    }

    /** Engine thread: the engine's I/O driver, which the sockets' calls and readiness go through. */
    IoDriver driver() {
        return slot.driver();
    }

    ToeConfig config() {
        return config;
    }

    AnonymousPool pool() {
        return pool;
    }

    /** Any thread: a host thread's new queue pair, served from the next duty cycle on. */
    HostQueuePair newQueuePair() {
        HostQueuePair q = new HostQueuePair(this, config.queueDepth());
        known.add(q);
        joining.add(q);
        slot.ring();
        return q;
    }

    /**
     * A socket whose last read found nothing, or whose last write found no room, tries again only
     * every {@link #IDLE_RETRY_EVERY}th cycle while the engine spins, and in the first cycle after
     * a sleep (which readiness may have ended): a sending socket costs no read system call per
     * cycle, nor a full one a write.
     */
    static final int IDLE_RETRY_EVERY = 8;

    private long cycles;
    private long sleepsSeen;
    private boolean retryIdle;

    /** Engine thread, this cycle: whether sockets whose last call found nothing to do try again. */
    boolean retryIdle() {
        return retryIdle;
    }

    @Override
    public int doWork(long now) {
        int work = 0;
        long sleeps = driver().sleeps();
        retryIdle = sleeps != sleepsSeen || ++cycles % IDLE_RETRY_EVERY == 0;
        sleepsSeen = sleeps;
        for (HostQueuePair q = joining.poll(); q != null; q = joining.poll()) {
            pairs.add(q);
            work++;
        }
        for (int i = 0; i < pairs.size(); i++) {
            work += takeRequests(pairs.get(i), now);
        }
        for (int i = 0; i < listeners.size(); i++) {
            EngineListener l = listeners.get(i);
            work += l.doWork();
            if (l.finished()) {
                listeners.remove(i--);
            }
        }
        long next = Long.MAX_VALUE;
        for (int i = 0; i < sockets.size(); i++) {
            EngineSocket s = sockets.get(i);
            work += s.doWork(now);
            if (s.finished()) {
                sockets.remove(i--);
            } else {
                next = Math.min(next, s.deadline());
            }
        }
        for (int i = 0; i < pairs.size(); i++) {
            HostQueuePair q = pairs.get(i);
            q.interruptIfDue(now);
            next = Math.min(next, q.interruptDeadline());
        }
        deadline = next;
        return work;
    }

    @Override
    public long deadline() {
        return deadline;
    }

    private int takeRequests(HostQueuePair q, long now) {
        int n = 0;
        for (Request r = q.nextRequest(); r != null; r = q.nextRequest()) {
            handle(r, now);
            q.requestDone(r);
            n++;
        }
        if (n > 0) {
            requestsTaken = requestsTaken + n;
        }
        return n;
    }

    private void handle(Request r, long now) {
        switch (r.kind()) {
            case CONNECT -> {
                EngineSocket s = new EngineSocket(this, r.socket());
                sockets.add(s);
                s.connect((InetSocketAddress) r.address());
            }
            case LISTEN -> {
                EngineListener l = new EngineListener(this, r.listener());
                listeners.add(l);
                l.listen((InetSocketAddress) r.address(), (int) r.value());
            }
            case ACCEPT -> r.listener().engineSide().onAccept();
            case SEND -> r.socket().engineSide().onSend(r.value());
            case NOTIFY_SENT -> r.socket().engineSide().onNotifySent(r.value());
            case SHUTDOWN_OUTPUT -> r.socket().engineSide().onShutdownOutput();
            case CLOSE -> {
                if (r.socket() != null) {
                    r.socket().engineSide().onClose(now);
                } else {
                    r.listener().engineSide().onClose();
                }
            }
        }
    }

    /** An accepted socket joins this engine (its listener's). */
    void adopt(EngineSocket s) {
        sockets.add(s);
    }

    /**
     * Posts one event to {@code q}; false if its event queue is full (the caller keeps what it owes
     * and tries again next cycle).
     */
    boolean post(HostQueuePair q, Event.Kind kind, ToeSocket socket, ToeServerSocket listener, int buffer,
                 int length, InetSocketAddress address, Throwable failure) {
        if (!q.postEvent(kind, socket, listener, buffer, length, address, failure)) {
            eventQueueFull = eventQueueFull + 1;
            return false;
        }
        eventsPosted = eventsPosted + 1;
        return true;
    }

    void sentBytes(int n) {
        bytesSent = bytesSent + n;
    }

    void receivedBytes(int n) {
        bytesReceived = bytesReceived + n;
    }

    void failedSocket() {
        socketFailures = socketFailures + 1;
    }

    void starvedSocket() {
        starvedReads = starvedReads + 1;
    }

    /** Engine thread: deregisters and then closes a channel (either may be null). */
    void close(IoRegistration registration, java.nio.channels.Channel channel) {
        if (registration != null) {
            registration.cancel();
        }
        if (channel != null) {
            try {
                channel.close();
            } catch (IOException e) {
                report(e);
            }
        }
    }

    /** A failure that ends nothing but should not pass silently (closing a socket failed). */
    void report(IOException e) {
        System.err.println("jwarp toe: " + e);
    }

    // ------------------------------------------------------------------ the engine goes

    @Override
    public void engineFailed(Throwable cause) {
        end(new IOException("the offload engine failed: " + cause, cause));
    }

    @Override
    public void shutdown() {
        end(new IOException("the offload engine stopped (its device or the offloaded sockets were closed)"));
    }

    private void end(IOException why) {
        if (gone == null) {
            gone = why;
        }
        for (EngineSocket s : sockets) {
            s.release();
        }
        sockets.clear();
        for (EngineListener l : listeners) {
            l.release();
        }
        // sockets accepted but never announced were adopted above
        listeners.clear();
        for (HostQueuePair q = joining.poll(); q != null; q = joining.poll()) {
            pairs.add(q);
        }
        for (HostQueuePair q : pairs) {
            q.wakeAll();
        }
    }

    boolean isGone() {
        return gone != null;
    }

    /** Host: throws if the engine no longer serves. */
    void checkAlive() throws IOException {
        IOException g = gone;
        if (g != null) {
            throw new IOException(g.getMessage(), g.getCause());
        }
    }

    /** A moment's view of this engine's counters. */
    ToeStats stats() {
        long interrupts = 0;
        long eventsTaken = 0;
        long full = 0;
        for (HostQueuePair q : known) {
            interrupts += q.interrupts();
            eventsTaken += q.eventsTaken();
            full += q.requestQueueFullCount();
        }
        return new ToeStats(requestsTaken, eventsPosted, eventsTaken, interrupts, bytesSent, bytesReceived,
                socketFailures, starvedReads, pool.starvations(), eventQueueFull, full, pool.available());
    }

    /** Every queue pair ever made, for counters (any thread). */
    private final List<HostQueuePair> known = new java.util.concurrent.CopyOnWriteArrayList<>();
}
