package org.jwarp.engine.io;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.nio.channels.SelectableChannel;
import java.nio.channels.SocketChannel;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.LockSupport;
import org.jwarp.sys.Epoll;
import org.jwarp.sys.EventFd;

/**
 * {@link IoDriver} by system calls through the FFM API: readiness from an epoll instance of the
 * thread's own (level-triggered, as NIO's selector), bytes by {@link SyscallSocketIo}, and the
 * wake-up an eventfd watched by the same epoll. A registration's epoll token is its slot in a
 * table and the slot's generation, so that a report for a channel cancelled in the same poll, or
 * for a slot reused since, is dropped; a poll allocates nothing. A listening channel's token
 * carries {@link #ACCEPT_BIT}, so that a sleep, which reads no slot (another thread may be
 * changing the table), can tell that a listener woke it ({@link #takeAcceptReady}).
 *
 * <p>A registration without interest leaves the epoll set (as NIO's selector does): epoll reports
 * a hang-up or an error whatever the interest, and a level-triggered report that nobody wants
 * would end every sleep at once.
 */
public class EpollIoDriver implements IoDriver {

    /** Events one poll takes at most; the rest come with the next (level-triggered). */
    static final int POLL_EVENTS = 256;
    /** Events a sleep takes: it only needs to know that one came. */
    private static final int SLEEP_EVENTS = 8;
    /** The eventfd's token: no slot has it. */
    private static final long WAKE_TOKEN = -1L;
    /** The token of a descriptor watched only so that it ends a sleep ({@link #watchForSleep}). */
    private static final long SLEEP_TOKEN = -2L;
    /** In the token of a registration whose interest is {@link #OP_ACCEPT}; the slot's index is below it. */
    private static final long ACCEPT_BIT = 1L << 31;
    private static final long INDEX_MASK = ACCEPT_BIT - 1;
    /** Without epoll_pwait2, sleeps shorter than this are parks (epoll_wait counts in milliseconds). */
    static final long WAIT_FROM_NANOS = NioIoDriver.SELECT_FROM_NANOS;

    private final Epoll epoll;
    private final EventFd wakeFd;
    /**
     * Freed with this object, not at close: a hybrid device's standby thread may sleep, and an
     * application thread poll, while another thread closes the device.
     */
    private final Arena arena = Arena.ofAuto();
    private final MemorySegment pollEvents = Epoll.events(arena, POLL_EVENTS);
    private final MemorySegment sleepEvents = Epoll.events(arena, SLEEP_EVENTS);
    private final MemorySegment sleepTimeout = arena.allocate(16, 8);
    private Slot[] slots = new Slot[16];
    private int[] free = new int[16];
    private int freeCount;
    private int used;
    /** The live registration of each watched descriptor (registration path only). */
    private final Map<Integer, Slot> byFd = new HashMap<>();
    private volatile long sleeps;
    private volatile boolean closed;
    private final AcceptReadiness acceptReady = new AcceptReadiness();

    /** @throws UncheckedIOException epoll or the eventfd cannot be made */
    public EpollIoDriver() {
        try {
            epoll = new Epoll();
            try {
                wakeFd = new EventFd();
                epoll.add(wakeFd.fd(), Epoll.EPOLLIN, WAKE_TOKEN);
            } catch (IOException e) {
                epoll.close();
                throw e;
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot open an epoll instance for an engine thread", e);
        }
    }

    @Override
    public String layer() {
        return "syscalls";
    }

    @Override
    public SocketIo open(SocketChannel channel, int capacity) {
        return new SyscallSocketIo(channel, capacity);
    }

    @Override
    public IoRegistration register(SelectableChannel channel, int interestOps, Object attachment)
            throws IOException {
        if (channel.isBlocking()) {
            throw new java.nio.channels.IllegalBlockingModeException();
        }
        int fd = SocketDescriptor.of(channel);
        if (fd < 0 || !channel.isOpen()) {
            throw new java.nio.channels.ClosedChannelException();
        }
        Slot stale = byFd.remove(fd);
        if (stale != null) {
            stale.forget();                         // its channel was closed undeclared and the number reused
        }
        Slot s = newSlot(fd, attachment);
        try {
            s.interestOps(interestOps);
        } catch (IOException e) {
            s.cancel();
            throw e;
        }
        byFd.put(fd, s);
        return s;
    }

    private Slot newSlot(int fd, Object attachment) {
        int index;
        if (freeCount > 0) {
            index = free[--freeCount];
        } else {
            if (used == slots.length) {
                slots = java.util.Arrays.copyOf(slots, used * 2);
                free = java.util.Arrays.copyOf(free, used * 2);
            }
            index = used++;
        }
        Slot old = slots[index];
        Slot s = new Slot(index, old == null ? 0 : old.generation + 1, fd, attachment);
        slots[index] = s;
        return s;
    }

    @Override
    public int pollNow(ReadyHandler handler) throws IOException {
        int n = epoll.wait(pollEvents, POLL_EVENTS, 0, sleepTimeout);
        int handed = 0;
        for (int i = 0; i < n; i++) {
            long token = Epoll.tokenOf(pollEvents, i);
            if (token == WAKE_TOKEN) {
                wakeFd.drain();                     // a wake-up is spent by a poll, as NIO's selectNow spends it
                continue;
            }
            if (token == SLEEP_TOKEN) {
                continue;
            }
            Slot s = slots[(int) (token & INDEX_MASK)];
            if (s == null || !s.valid || s.generation != (int) (token >>> 32)) {
                continue;                           // cancelled by a handler of this poll, or reused
            }
            int ready = readyOps(Epoll.eventsOf(pollEvents, i)) & s.interest;
            if ((ready & OP_ACCEPT) != 0) {
                acceptReady.note();
            }
            if (ready != 0) {
                handed++;
                handler.ready(s.attachment, ready);
            }
        }
        return handed;
    }

    /** What epoll's bits mean in {@link IoDriver#OP_READ}'s terms: an error or hang-up is every op's. */
    static int readyOps(int events) {
        int ready = 0;
        if ((events & (Epoll.EPOLLIN | Epoll.EPOLLERR | Epoll.EPOLLHUP | Epoll.EPOLLRDHUP)) != 0) {
            ready |= OP_READ | OP_ACCEPT;
        }
        if ((events & (Epoll.EPOLLOUT | Epoll.EPOLLERR | Epoll.EPOLLHUP)) != 0) {
            ready |= OP_WRITE | OP_CONNECT;
        }
        return ready;
    }

    static int epollEvents(int ops) {
        int events = 0;
        if ((ops & (OP_READ | OP_ACCEPT)) != 0) {
            events |= Epoll.EPOLLIN;
        }
        if ((ops & (OP_WRITE | OP_CONNECT)) != 0) {
            events |= Epoll.EPOLLOUT;
        }
        return events;
    }

    @Override
    public boolean takeAcceptReady() {
        return acceptReady.take();
    }

    @Override
    public void flush() throws IOException {
    }

    /** Watches {@code fd} so that its readability ends a sleep (an io_uring's: completions wait); polls skip it. */
    protected void watchForSleep(int fd) throws IOException {
        epoll.add(fd, Epoll.EPOLLIN, SLEEP_TOKEN);
    }

    @Override
    public void sleep(long nanos) {
        try {
            if (nanos <= 0 || closed) {
                return;                             // closed: a waiting thread idling on a closed device goes on
            }
            if (!epoll.nanosecondWaits() && nanos < WAIT_FROM_NANOS) {
                LockSupport.parkNanos(nanos);
                return;
            }
            long end = System.nanoTime() + nanos;
            int n = epoll.wait(sleepEvents, SLEEP_EVENTS, nanos, sleepTimeout);
            // nothing came and time is left: a signal cut the wait short
            for (long left = end - System.nanoTime(); n == 0 && left > 0; left = end - System.nanoTime()) {
                n = epoll.wait(sleepEvents, SLEEP_EVENTS, left, sleepTimeout);
            }
            for (int i = 0; i < n; i++) {
                long token = Epoll.tokenOf(sleepEvents, i);
                if (token == WAKE_TOKEN) {
                    wakeFd.drain();
                } else if (token != SLEEP_TOKEN && (token & ACCEPT_BIT) != 0) {
                    acceptReady.note();
                }
            }
        } catch (IOException | IllegalStateException e) {
            if (!closed) {
                throw new UncheckedIOException("engine epoll failed", e instanceof IOException io ? io
                        : new IOException(e));
            }
        } finally {
            sleeps++;   // one sleeper at a time: the engine thread, or the thread holding the invoked cycle
        }
    }

    @Override
    public void wakeup() {
        wakeFd.signal();
    }

    /** With nanosecond waits no sleep is a park: the eventfd alone ends it. */
    @Override
    public void wake(Thread sleeper) {
        wakeup();
        if (!epoll.nanosecondWaits()) {
            LockSupport.unpark(sleeper);
        }
    }

    @Override
    public boolean pollsBesideSleep() {
        return true;
    }

    @Override
    public long sleeps() {
        return sleeps;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        wakeFd.signal();                            // a sleep under way ends
        epoll.close();
        wakeFd.close();
    }

    /** One registration: a slot of the table. */
    private final class Slot implements IoRegistration {
        private final int index;
        private final int generation;
        private final int fd;
        private final Object attachment;
        private int interest;
        private boolean watched;
        private boolean valid = true;

        Slot(int index, int generation, int fd, Object attachment) {
            this.index = index;
            this.generation = generation;
            this.fd = fd;
            this.attachment = attachment;
        }

        private long token(int ops) {
            return ((long) generation << 32) | ((ops & OP_ACCEPT) != 0 ? ACCEPT_BIT : 0) | index;
        }

        @Override
        public int interestOps() {
            return valid ? interest : 0;
        }

        @Override
        public void interestOps(int ops) throws IOException {
            if (!valid) {
                throw new IOException("the channel's registration was cancelled (closed?)");
            }
            int events = epollEvents(ops);
            if (events == 0) {
                if (watched) {
                    epoll.remove(fd);
                    watched = false;
                }
            } else if (watched) {
                if (epollEvents(interest) != events || token(interest) != token(ops)) {
                    epoll.modify(fd, events, token(ops));
                }
            } else {
                epoll.add(fd, events, token(ops));
                watched = true;
            }
            interest = ops;
        }

        @Override
        public Object attachment() {
            return attachment;
        }

        @Override
        public boolean isValid() {
            return valid;
        }

        @Override
        public void cancel() {
            if (!valid) {
                return;
            }
            if (watched && !closed) {
                try {
                    epoll.remove(fd);
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
            byFd.remove(fd, this);
            forget();
        }

        /** Drops the slot without touching epoll (the descriptor is not this channel's any more). */
        void forget() {
            if (!valid) {
                return;
            }
            valid = false;
            watched = false;
            free[freeCount++] = index;
        }
    }
}
