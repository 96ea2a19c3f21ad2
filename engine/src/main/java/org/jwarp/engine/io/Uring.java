package org.jwarp.engine.io;

import static java.lang.foreign.ValueLayout.ADDRESS;
import static java.lang.foreign.ValueLayout.JAVA_BYTE;
import static java.lang.foreign.ValueLayout.JAVA_INT;
import static java.lang.foreign.ValueLayout.JAVA_LONG;

import java.io.IOException;
import java.lang.foreign.Arena;
import java.lang.foreign.MemorySegment;
import java.lang.invoke.VarHandle;
import org.jwarp.sys.Downcalls;
import org.jwarp.sys.Errno;

/**
 * One io_uring instance through the FFM API (no liburing: {@code io_uring_setup} and
 * {@code io_uring_enter} by system call number, the rings mapped with {@code mmap}), owned by one
 * engine thread and shared by its connections. A call is one submission queue entry and its
 * completion: {@code sendmsg} or {@code recvmsg} with {@code MSG_DONTWAIT} ({@code send} or
 * {@code recv} for one piece, which spare the kernel the msghdr's import), so that a socket with
 * no room or no data completes at once with -EAGAIN instead of waiting in the kernel. Without
 * SQPOLL one {@code io_uring_enter} submits it and reaps its completion; with SQPOLL a kernel
 * thread takes it from the ring — the kernel playing the offload engine — and the caller spins on
 * the completion queue, entering the kernel only to wake that thread when it went to sleep, or to
 * wait when the completion takes longer than a short spin (the kernel thread may need this CPU).
 *
 * <p>Calls can also be batched: {@link #queue} puts an entry on the ring without entering the
 * kernel, and {@link #flush} submits every queued entry and reaps their completions in one
 * {@code io_uring_enter}: a duty cycle's writes on all its connections cost one system call.
 *
 * <p>Entries name only memory the engine owns (staging buffers, msghdrs): the kernel takes an entry
 * outside any call of this thread that could hold an application arena's scope
 * ({@link UringSocketIo}).
 *
 * <p>Results come back in the completion entry as -errno: no errno to capture on this path.
 * Linux x86-64 and aarch64 (the system call numbers are the same on both); the calls themselves
 * are {@link UringSyscalls}'.
 */
public final class Uring implements AutoCloseable {


    private static final int IORING_SETUP_SQPOLL = 1 << 1;
    private static final int IORING_FEAT_SINGLE_MMAP = 1;
    private static final int IORING_ENTER_GETEVENTS = 1;
    private static final int IORING_ENTER_SQ_WAKEUP = 1 << 1;
    private static final int IORING_SQ_NEED_WAKEUP = 1;
    private static final long IORING_OFF_SQ_RING = 0;
    private static final long IORING_OFF_CQ_RING = 0x8000000L;
    private static final long IORING_OFF_SQES = 0x10000000L;
    /** SQPOLL: spins on the completion queue before sleeping in io_uring_enter. */
    private static final int SQPOLL_SPINS = 2000;
    static final byte IORING_OP_SENDMSG = 9;
    static final byte IORING_OP_RECVMSG = 10;
    static final byte IORING_OP_SEND = 26;
    static final byte IORING_OP_RECV = 27;
    /** The entry's socket is an index in the ring's file table ({@link DirectRing}). */
    static final byte IOSQE_FIXED_FILE = 1;
    private static final int IORING_SETUP_CQSIZE = 1 << 3;


    /** struct io_uring_params and its offsets structs. */
    private static final long PARAMS = 120;
    private static final long P_SQ_ENTRIES = 0;
    private static final long P_CQ_ENTRIES = 4;
    private static final long P_FLAGS = 8;
    private static final long P_SQ_THREAD_IDLE = 16;
    private static final long P_FEATURES = 20;
    private static final long P_SQ_OFF = 40;
    private static final long P_CQ_OFF = 80;
    /** struct io_uring_sqe (64 bytes) and struct io_uring_cqe (16 bytes). */
    private static final long SQE = 64;
    private static final long CQE = 16;

    private static final VarHandle INT = JAVA_INT.varHandle();

    private final Arena arena = Arena.ofShared();
    private final MemorySegment capture = Downcalls.captureBuffer(arena);
    private final boolean sqpoll;
    private final int fd;
    private final MemorySegment sqRing;
    private final MemorySegment cqRing;
    private final MemorySegment sqes;
    private final long sqRingBytes;
    private final long cqRingBytes;
    private final boolean singleMmap;
    private final long sqHead;
    private final long sqTail;
    private final int sqMask;
    private final long sqFlags;
    private final long sqArray;
    private final long cqHead;
    private final long cqTail;
    private final int cqMask;
    private final long cqes;
    private int localSqTail;
    private final int sqEntries;
    private boolean closed;

    /** Null if a ring (with SQPOLL if asked) can be made here, else why not (one line). */
    public static String why(boolean sqpoll) {
        if (UringSyscalls.WHY_NOT != null) {
            return UringSyscalls.WHY_NOT;
        }
        try (Uring u = new Uring(2, sqpoll, 1)) {
            return null;
        } catch (IOException | RuntimeException e) {
            return e.getMessage();
        }
    }

    /**
     * A ring of {@code entries} (a power of two).
     *
     * @param sqpoll      a kernel thread polls the submission queue
     * @param sqIdleMillis with SQPOLL: how long that thread spins without work before it sleeps
     * @throws IOException io_uring_setup or mmap failed (the reason in the message)
     */
    public Uring(int entries, boolean sqpoll, int sqIdleMillis) throws IOException {
        this(entries, 0, sqpoll, sqIdleMillis);
    }

    /** A ring of {@code entries} submissions and {@code cqAsked} completions (0: the kernel's choice). */
    Uring(int entries, int cqAsked, boolean sqpoll, int sqIdleMillis) throws IOException {
        this.sqpoll = sqpoll;
        MemorySegment p = arena.allocate(PARAMS, 8);
        if (cqAsked > 0) {
            p.set(JAVA_INT, P_FLAGS, IORING_SETUP_CQSIZE);
            p.set(JAVA_INT, P_CQ_ENTRIES, cqAsked);
        }
        if (sqpoll) {
            p.set(JAVA_INT, P_FLAGS, p.get(JAVA_INT, P_FLAGS) | IORING_SETUP_SQPOLL);
            p.set(JAVA_INT, P_SQ_THREAD_IDLE, sqIdleMillis);
        }
        long r = UringSyscalls.setup(capture, entries, p);
        if (r < 0) {
            throw new IOException("io_uring_setup" + (sqpoll ? " (SQPOLL)" : "") + ": "
                    + Errno.describe(Downcalls.errno(capture)));
        }
        fd = (int) r;
        int sqEntries = p.get(JAVA_INT, P_SQ_ENTRIES);
        this.sqEntries = sqEntries;
        int cqEntries = p.get(JAVA_INT, P_CQ_ENTRIES);
        singleMmap = (p.get(JAVA_INT, P_FEATURES) & IORING_FEAT_SINGLE_MMAP) != 0;
        long sqArrayOff = Integer.toUnsignedLong(p.get(JAVA_INT, P_SQ_OFF + 24));
        long cqesOff = Integer.toUnsignedLong(p.get(JAVA_INT, P_CQ_OFF + 20));
        long sqBytes = sqArrayOff + 4L * sqEntries;
        long cqBytes = cqesOff + CQE * cqEntries;
        if (singleMmap) {
            sqBytes = Math.max(sqBytes, cqBytes);
            cqBytes = sqBytes;
        }
        sqRingBytes = sqBytes;
        cqRingBytes = cqBytes;
        try {
            sqRing = map(sqBytes, IORING_OFF_SQ_RING);
            cqRing = singleMmap ? sqRing : map(cqBytes, IORING_OFF_CQ_RING);
            sqes = map(SQE * sqEntries, IORING_OFF_SQES);
        } catch (IOException e) {
            closeFd();
            throw e;
        }
        sqHead = Integer.toUnsignedLong(p.get(JAVA_INT, P_SQ_OFF));
        sqTail = Integer.toUnsignedLong(p.get(JAVA_INT, P_SQ_OFF + 4));
        sqMask = sqRing.get(JAVA_INT, Integer.toUnsignedLong(p.get(JAVA_INT, P_SQ_OFF + 8)));
        sqFlags = Integer.toUnsignedLong(p.get(JAVA_INT, P_SQ_OFF + 16));
        sqArray = sqArrayOff;
        cqHead = Integer.toUnsignedLong(p.get(JAVA_INT, P_CQ_OFF));
        cqTail = Integer.toUnsignedLong(p.get(JAVA_INT, P_CQ_OFF + 4));
        cqMask = cqRing.get(JAVA_INT, Integer.toUnsignedLong(p.get(JAVA_INT, P_CQ_OFF + 8)));
        cqes = cqesOff;
        localSqTail = (int) INT.getAcquire(sqRing, sqTail);
    }

    /** Whether a kernel thread polls this ring's submissions. */
    public boolean sqpoll() {
        return sqpoll;
    }

    /**
     * Runs one {@code sendmsg} or {@code recvmsg} on {@code socket} with {@code msghdr} and
     * {@code flags}, and returns its result: bytes, or -errno.
     */
    long msg(byte opcode, int socket, MemorySegment msghdr, int flags) throws IOException {
        return call(opcode, (byte) 0, socket, msghdr.address(), 1, flags);
    }

    /**
     * Runs one {@code send} or {@code recv} of {@code length} bytes at {@code address} on
     * {@code socket} with {@code flags}, and returns its result: bytes, or -errno.
     */
    long plain(byte opcode, int socket, long address, long length, int flags) throws IOException {
        return call(opcode, (byte) 0, socket, address, (int) Math.min(length, Integer.MAX_VALUE), flags);
    }

    /** The user data of a synchronous call's entry; a batched entry's is its place in the batch. */
    static final long SYNC = -1L;

    /** One entry: its address field {@code addr}, length field {@code len}; its result. */
    long call(byte opcode, byte sqeFlags, int socket, long addr, int len, int flags) throws IOException {
        awaitSqRoom();
        put(opcode, sqeFlags, socket, addr, len, flags, SYNC);
        return awaitSync();
    }

    /**
     * One call on table entry {@code index} whose pieces may be application memory: the entry is
     * submitted, and completes (a socket call with {@code MSG_DONTWAIT} is made inline at
     * submission), inside one {@code io_uring_enter} that holds the pieces' scopes. Without SQPOLL
     * only: no other thread takes entries from this ring.
     *
     * @throws IllegalStateException a held scope was closed: nothing was submitted
     */
    long callHolding(byte opcode, int index, long addr, int len, int flags, ScopeHolds holds) throws IOException {
        awaitSqRoom();
        put(opcode, IOSQE_FIXED_FILE, index, addr, len, flags, SYNC);
        try {
            UringSyscalls.enterHolding(fd, unsubmitted(), 1, IORING_ENTER_GETEVENTS, holds);
        } catch (IllegalStateException closed) {
            // the scope closed before the call: the entry was not submitted, and is taken back
            localSqTail--;
            INT.setRelease(sqRing, sqTail, localSqTail);
            throw closed;
        }
        enters++;
        if (unsubmitted() > 0) {
            enter(unsubmitted(), 0, 0);             // interrupted before submitting: submit now, no hold needed after the check
        }
        return reapSync();
    }

    /** Waits for the synchronous entry just put (events that complete meanwhile are kept). */
    long awaitSync() throws IOException {
        if (sqpoll) {
            wakeSqThread();
            // a socket call completes within microseconds once the kernel thread has it: spin that
            // long, then sleep in the kernel until it completes, so that a kernel thread on this CPU
            // gets it (the wait below)
            int head = (int) INT.getAcquire(cqRing, cqHead);
            for (int spin = 0; spin < SQPOLL_SPINS && (int) INT.getAcquire(cqRing, cqTail) == head; spin++) {
                Thread.onSpinWait();
            }
        } else {
            // entries of a batch not yet submitted go with it (an error path may call between the
            // batch's queueing and its flush)
            enter(unsubmitted(), 1, IORING_ENTER_GETEVENTS);
        }
        return reapSync();
    }

    /** Reaps completions until the synchronous entry's, waiting in the kernel while none is there. */
    private long reapSync() throws IOException {
        while (true) {
            if ((int) INT.getAcquire(cqRing, cqTail) == (int) INT.getAcquire(cqRing, cqHead)) {
                // submitted, not yet complete (EINTR cut the wait short): wait without submitting
                enter(0, 1, IORING_ENTER_GETEVENTS);
                continue;
            }
            if (reapOne()) {
                return syncResult;
            }
        }
    }

    /** Writes one submission entry and publishes it with the tail. */
    private void put(byte opcode, byte sqeFlags, int socket, long addr, int len, int flags, long userData) {
        publish(begin(opcode, sqeFlags, socket, addr, len, flags, userData));
    }

    /** Writes one submission entry's common fields; {@link #publish} hands it to the kernel. */
    long begin(byte opcode, byte sqeFlags, int socket, long addr, int len, int flags, long userData) {
        int index = localSqTail & sqMask;
        long sqe = index * SQE;
        for (long at = sqe; at < sqe + SQE; at += 8) {
            sqes.set(JAVA_LONG, at, 0L);
        }
        sqes.set(JAVA_BYTE, sqe, opcode);
        sqes.set(JAVA_BYTE, sqe + 1, sqeFlags);
        sqes.set(JAVA_INT, sqe + 4, socket);
        sqes.set(JAVA_LONG, sqe + 16, addr);
        sqes.set(JAVA_INT, sqe + 24, len);
        sqes.set(JAVA_INT, sqe + 28, flags);
        sqes.set(JAVA_LONG, sqe + 32, userData);
        return sqe;
    }

    /** The submission entries, for fields {@link #begin} does not write. */
    MemorySegment sqes() {
        return sqes;
    }

    /** Publishes the entry {@link #begin} wrote at {@code sqe}, with the tail. */
    void publish(long sqe) {
        int tail = localSqTail;
        int index = (int) (sqe / SQE);
        sqRing.set(JAVA_INT, sqArray + 4L * index, index);
        localSqTail = tail + 1;
        INT.setRelease(sqRing, sqTail, tail + 1);      // the kernel sees the entry with the tail
    }

    /**
     * A call made while a whole batch waits unsubmitted in the ring: the batch goes to the kernel
     * first (it keeps its place before the call), so that the call's entry overwrites none of it.
     */
    void awaitSqRoom() throws IOException {
        while (unsubmitted() == sqEntries) {
            if (sqpoll) {
                wakeSqThread();
                Thread.onSpinWait();
            } else {
                enter(sqEntries, 0, 0);
            }
        }
    }

    /** Entries written that the kernel has not taken yet (without SQPOLL: to submit with the next enter). */
    private int unsubmitted() {
        return localSqTail - (int) INT.getAcquire(sqRing, sqHead);
    }

    private void wakeSqThread() throws IOException {
        VarHandle.fullFence();                          // the tail store before the flags load
        if (((int) INT.getAcquire(sqRing, sqFlags) & IORING_SQ_NEED_WAKEUP) != 0) {
            enter(0, 0, IORING_ENTER_SQ_WAKEUP);
        }
    }

    /**
     * Reaps the completion at the head: a batched entry's result is kept for {@link #flush}; true
     * if it is the call's (its result in {@link #syncResult}).
     */
    private boolean reapOne() {
        int head = (int) INT.getAcquire(cqRing, cqHead);
        long cqe = cqes + (head & cqMask) * CQE;
        long userData = cqRing.get(JAVA_LONG, cqe);
        int res = cqRing.get(JAVA_INT, cqe + 8);
        INT.setRelease(cqRing, cqHead, head + 1);
        if (userData == SYNC) {
            syncResult = res;
            return true;
        }
        if ((userData & EVENT) != 0) {
            events.add(userData & ~EVENT, res, cqRing.get(JAVA_INT, cqe + 12));
            return false;
        }
        batchResults[(int) userData] = res;
        outstanding--;
        return false;
    }

    private long syncResult;

    private IoCompletion[] batch = new IoCompletion[0];
    private long[] batchResults = new long[0];
    private int batched;
    private int outstanding;

    /**
     * Queues one entry — {@code send}/{@code recv} of {@code length} bytes at {@code address}, or
     * {@code sendmsg}/{@code recvmsg} with the msghdr at {@code address} — to be submitted with the
     * others of this batch by {@link #flush}, which hands its result to {@code done}. False if the
     * batch is full (the caller makes the call now).
     */
    boolean queue(byte opcode, int socket, long address, long length, int flags, IoCompletion done) {
        if (batched == sqEntries || unsubmitted() == sqEntries) {
            return false;
        }
        if (batch.length == 0) {
            batch = new IoCompletion[sqEntries];
            batchResults = new long[sqEntries];
        }
        put(opcode, (byte) 0, socket, address, (int) Math.min(length, Integer.MAX_VALUE), flags, batched);
        batch[batched++] = done;
        outstanding++;
        return true;
    }

    /**
     * Submits what {@link #queue} queued in one {@code io_uring_enter} (with SQPOLL: wakes the
     * kernel thread if it sleeps), waits for every entry's completion, then hands each result to
     * its {@link IoCompletion}, in the order queued.
     */
    public void flush() throws IOException {
        if (batched == 0) {
            return;
        }
        if (sqpoll) {
            wakeSqThread();
            for (int spin = 0; spin < SQPOLL_SPINS && outstanding > 0; spin++) {
                if ((int) INT.getAcquire(cqRing, cqTail) != (int) INT.getAcquire(cqRing, cqHead)) {
                    reapOne();
                } else {
                    Thread.onSpinWait();
                }
            }
        } else {
            enter(unsubmitted(), outstanding, IORING_ENTER_GETEVENTS);
        }
        while (outstanding > 0) {
            if ((int) INT.getAcquire(cqRing, cqTail) == (int) INT.getAcquire(cqRing, cqHead)) {
                enter(0, outstanding, IORING_ENTER_GETEVENTS);
            } else {
                reapOne();
            }
        }
        int n = batched;
        batched = 0;                                   // a completion may make a call of its own
        for (int i = 0; i < n; i++) {
            IoCompletion done = batch[i];
            batch[i] = null;
            done.completed(batchResults[i]);
        }
    }

    /** The user data bit of an event: an entry whose completion {@link #reap} hands on later. */
    static final long EVENT = 1L << 62;
    private final UringEvents events = new UringEvents();

    /**
     * Hands every completed event (an entry put with {@link #EVENT} in its user data) to
     * {@code handler}, reaping what the completion queue holds first; returns how many.
     */
    int reap(UringEvents.Handler handler) {
        while ((int) INT.getAcquire(cqRing, cqTail) != (int) INT.getAcquire(cqRing, cqHead)) {
            reapOne();
        }
        return events.drain(handler);
    }

    /** Whether event completions wait, reaped or not. */
    boolean eventsWaiting() {
        return !events.isEmpty() || (int) INT.getAcquire(cqRing, cqTail) != (int) INT.getAcquire(cqRing, cqHead);
    }

    /** Submits the entries written and not yet submitted, without waiting. */
    void submit() throws IOException {
        if (unsubmitted() > 0) {
            enter(unsubmitted(), 0, 0);
        }
    }

    /** The ring's descriptor (epoll watches it: readable while completions wait). */
    int fd() {
        return fd;
    }

    /** io_uring_enter calls made so far (tests count them). */
    private long enters;

    long enters() {
        return enters;
    }

    private void enter(int toSubmit, int minComplete, int flags) throws IOException {
        enters++;
        long r = UringSyscalls.enterQuick(fd, toSubmit, minComplete, flags);
        if (r < 0) {
            // errno is not captured on the quick path: repeat the call with it captured, submitting
            // only what the kernel has not taken yet
            enterCapturingErrno(localSqTail - (int) INT.getAcquire(sqRing, sqHead), minComplete, flags);
        }
    }

    private void enterCapturingErrno(int toSubmit, int minComplete, int flags) throws IOException {
        while (true) {
            long r = UringSyscalls.enterCapturing(capture, fd, toSubmit, minComplete, flags);
            if (r >= 0) {
                return;
            }
            int errno = Downcalls.errno(capture);
            if (errno != Errno.EINTR) {
                throw new IOException("io_uring_enter: " + Errno.describe(errno));
            }
            // interrupted: what was submitted stays submitted; wait without submitting it twice
            toSubmit = 0;
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        UringSyscalls.munmap(capture, sqes, sqes.byteSize());
        if (cqRing != sqRing) {
            UringSyscalls.munmap(capture, cqRing, cqRingBytes);
        }
        UringSyscalls.munmap(capture, sqRing, sqRingBytes);
        closeFd();
        arena.close();
    }

    private void closeFd() {
        UringSyscalls.close(capture, fd);
    }

    private MemorySegment map(long bytes, long offset) throws IOException {
        return UringSyscalls.map(capture, fd, bytes, offset);
    }
}
