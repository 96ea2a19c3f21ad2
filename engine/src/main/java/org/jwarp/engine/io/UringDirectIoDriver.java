package org.jwarp.engine.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.Consumer;
import org.jwarp.sys.OpenFileLimit;

/**
 * {@link IoDriver} whose connections' sockets are io_uring direct descriptors
 * ({@link DirectSocket}): they live in the file tables of this engine thread's
 * {@link DirectRing}s — as many rings as the sockets need, each table as large as the open-file
 * limit allows — and never in the process's descriptor table, so the number of connections is
 * not bounded by that limit.
 *
 * <p>Readiness: each socket arms a one-shot poll per direction of its interest on its ring; a
 * poll's completion makes the socket ready, {@link #pollNow} hands it on and the socket arms the
 * poll again. A poll armed again on a socket still ready completes at once, so readiness is
 * level-triggered as the other layers'. An idle socket is one armed poll in the kernel: no work
 * in the engine. The rings' descriptors sit in the epoll set of {@link EpollIoDriver}, so a
 * completion ends the thread's sleep; channels ({@code SocketChannel}s) still register there.
 *
 * <p>Listeners: a listening socket is an ordinary descriptor (one per listener); a multishot
 * accept on one ring with room puts each connection straight into that ring's table, and moves
 * to another ring when the table runs short.
 */
public final class UringDirectIoDriver extends EpollIoDriver {

    static final int READ_POLL = 1;
    static final int WRITE_POLL = 2;
    static final int CONNECT = 3;
    static final int ACCEPT = 4;
    /** The largest table a ring gets (the open-file limit may make it smaller). */
    static final int MAX_TABLE = 16_384;
    /** Entries a table keeps free while its ring accepts: connections accepted before the accept moves on. */
    private final int reserve;
    private final int table;

    private final List<DirectRing> rings = new ArrayList<>();
    private DirectSocket[] sockets = new DirectSocket[1024];
    private int[] generations = new int[1024];
    private int[] free = new int[1024];
    private int freeCount;
    private int slotsUsed;
    private DirectSocket[] readyQueue = new DirectSocket[256];
    private int readyCount;
    private final List<Listening> listeners = new ArrayList<>();
    private final List<Object> accepted = new ArrayList<>();
    private DirectRing reaping;
    private final UringEvents.Handler onEvent = this::event;
    private final Arena arena = Arena.ofAuto();
    private final MemorySegment scratch = arena.allocate(4096, 8);

    public UringDirectIoDriver() {
        this((int) Math.min(MAX_TABLE, OpenFileLimit.why() == null ? OpenFileLimit.get().soft() : 1024));
    }

    /** Tables of {@code table} entries (no more than the open-file limit; tests make them small). */
    UringDirectIoDriver(int table) {
        this.table = Math.max(64, table);
        reserve = Math.max(16, Math.min(1024, this.table / 8));
    }

    @Override
    public String layer() {
        return "uring-direct";
    }

    /** Sockets this driver holds now. */
    public int sockets() {
        return slotsUsed;
    }

    /** Rings (file tables) this driver has made. */
    public int rings() {
        return rings.size();
    }

    /** A ring whose table has room beyond the reserve; a new one if none has. */
    DirectRing ringWithRoom() throws IOException {
        for (DirectRing r : rings) {
            if (r.room() > reserve) {
                return r;
            }
        }
        DirectRing r = new DirectRing(table);
        try {
            watchForSleep(r.ring().fd());
        } catch (IOException e) {
            r.close();
            throw e;
        }
        rings.add(r);
        return r;
    }

    MemorySegment scratch() {
        return scratch;
    }

    /** A socket's place in the table of sockets: its events' tokens name it. */
    int enter(DirectSocket s) {
        int slot;
        if (freeCount > 0) {
            slot = free[--freeCount];
        } else {
            if (slotsUsed == sockets.length) {
                sockets = Arrays.copyOf(sockets, slotsUsed * 2);
                generations = Arrays.copyOf(generations, slotsUsed * 2);
                free = Arrays.copyOf(free, slotsUsed * 2);
            }
            slot = slotsUsed;
        }
        sockets[slot] = s;
        slotsUsed++;
        return slot;
    }

    int generation(int slot) {
        return generations[slot];
    }

    /** The socket closes: its place is free, and its events still to come are dropped (a new generation). */
    void leave(DirectSocket s, int slot) {
        if (sockets[slot] != s) {
            return;
        }
        sockets[slot] = null;
        generations[slot]++;
        free[freeCount++] = slot;
        slotsUsed--;
    }

    /** {@code s} is ready: {@link #pollNow} hands it on. */
    void enqueue(DirectSocket s) {
        if (s.queued) {
            return;
        }
        s.queued = true;
        if (readyCount == readyQueue.length) {
            readyQueue = Arrays.copyOf(readyQueue, readyCount * 2);
        }
        readyQueue[readyCount++] = s;
    }

    private void event(long token, int res, int flags) {
        int kind = (int) (token >>> 56);
        int slot = (int) token;
        if (kind == 0) {
            return;                                 // a close's entries (DirectRing.IGNORED)
        }
        if (kind == ACCEPT) {
            accepted(slot, res, flags);
            return;
        }
        if (slot < 0 || slot >= sockets.length) {
            return;
        }
        DirectSocket s = sockets[slot];
        if (s != null && s.generationBits() == (int) (token >>> 32 & 0xFFFFFF)) {
            s.event(kind, res);
        }
    }

    /** Listening descriptor {@code fd}: each connection accepted becomes a socket handed to {@code onAccept} (this thread). */
    public Object listen(int fd, Consumer<DirectSocket> onAccept) throws IOException {
        Listening l = new Listening(listeners.size(), fd, onAccept);
        listeners.add(l);
        l.arm();
        return l;
    }

    /** Stops accepting for what {@link #listen} returned (its descriptor may be closed already). */
    public void unlisten(Object listening) throws IOException {
        Listening l = (Listening) listening;
        if (l.closed) {
            return;
        }
        l.closed = true;
        if (l.armed != null) {
            l.armed.cancel(l.token());
            l.armed = null;
        }
        listeners.set(l.id, null);
    }

    private void accepted(int id, int res, int flags) {
        Listening l = id < listeners.size() ? listeners.get(id) : null;
        DirectRing ring = reaping;
        if (res >= 0) {
            ring.taken();
            DirectSocket s = new DirectSocket(this, ring, res);
            if (l == null) {
                accepted.add(s);                    // the listener closed: the socket closes below
                accepted.add(null);
            } else {
                accepted.add(s);
                accepted.add(l);
            }
        }
        if (l == null || l.closed) {
            return;
        }
        boolean ended = (flags & 2) == 0;           // IORING_CQE_F_MORE clear: this accept is over
        try {
            if (l.armed == ring && ring.room() <= reserve) {
                ring.cancel(l.token());
                l.armed = null;
            } else if (ended && l.armed == ring) {
                l.armed = null;
            }
            if (l.armed == null) {
                l.arm();
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot accept on a direct socket's ring", e);
        }
    }

    @Override
    public int pollNow(ReadyHandler handler) throws IOException {
        reapAll();
        int handed = 0;
        int n = readyCount;
        for (int i = 0; i < n; i++) {
            DirectSocket s = readyQueue[i];
            readyQueue[i] = null;
            handed += s.handOut(handler);
        }
        dequeue(n);
        handed += super.pollNow(handler);
        submitAll();
        return handed;
    }

    /** Drops the first {@code n} of the ready queue; sockets made ready while they were handed out stay. */
    private void dequeue(int n) {
        System.arraycopy(readyQueue, n, readyQueue, 0, readyCount - n);
        Arrays.fill(readyQueue, readyCount - n, readyCount, null);
        readyCount -= n;
    }

    /**
     * Owner thread: takes every ring's completions — sockets' readiness and connects (kept in the
     * sockets until a poll hands them on), listeners' accepts (handed to the listeners now).
     */
    private void reapAll() throws IOException {
        // by index: an accept's handler may add a ring (a table ran short) while this reaps
        for (int i = 0; i < rings.size(); i++) {
            DirectRing r = rings.get(i);
            reaping = r;
            r.ring().reap(onEvent);
        }
        reaping = null;
        if (!accepted.isEmpty()) {
            handAccepted();
        }
    }

    private void handAccepted() throws IOException {
        for (int i = 0; i < accepted.size(); i += 2) {
            DirectSocket s = (DirectSocket) accepted.get(i);
            Listening l = (Listening) accepted.get(i + 1);
            if (l == null || l.closed) {
                s.close();
            } else {
                l.onAccept.accept(s);
            }
        }
        accepted.clear();
    }

    private void submitAll() throws IOException {
        for (int i = 0; i < rings.size(); i++) {
            rings.get(i).ring().submit();
        }
    }

    /**
     * Submits the polls armed and takes the completions: a duty cycle that reads its connections
     * without a poll (a few connections, or after a sleep) still sees connects complete and
     * connections accepted.
     */
    @Override
    public void flush() throws IOException {
        reapAll();
        submitAll();
    }

    /**
     * Submits what the duty cycle armed, and sleeps unless completions wait already (reaped by a
     * call of the cycle, or still in a ring): a completion in a ring ends the sleep, since the
     * rings' descriptors are in the epoll set. Never beside a duty cycle ({@link #pollsBesideSleep}).
     */
    @Override
    public void sleep(long nanos) {
        try {
            submitAll();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (!accepted.isEmpty() || eventsWaiting()) {
            return;
        }
        super.sleep(nanos);
    }

    /** The rings are the duty cycle's: a sleep submits on them, so no cycle runs beside it. */
    @Override
    public boolean pollsBesideSleep() {
        return false;
    }

    private boolean eventsWaiting() {
        for (DirectRing r : rings) {
            if (r.ring().eventsWaiting()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() {
        for (Listening l : listeners) {
            if (l != null) {
                l.closed = true;
            }
        }
        for (DirectRing r : rings) {
            r.close();                              // every socket still in a table closes with it
        }
        rings.clear();
        super.close();
    }

    /** One listener's accepts: on one ring at a time, the one with room. */
    private final class Listening {
        final int id;
        final int fd;
        final Consumer<DirectSocket> onAccept;
        DirectRing armed;
        boolean closed;

        Listening(int id, int fd, Consumer<DirectSocket> onAccept) {
            this.id = id;
            this.fd = fd;
            this.onAccept = onAccept;
        }

        void arm() throws IOException {
            DirectRing r = ringWithRoom();
            r.acceptAll(fd, token());
            armed = r;
        }

        long token() {
            return (long) ACCEPT << 56 | id;
        }
    }
}
