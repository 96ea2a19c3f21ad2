package org.jwarp.engine.provider;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicBoolean;
import org.jwarp.engine.counters.CounterScopes;
import org.jwarp.engine.datapath.Connection;
import org.jwarp.engine.datapath.SendSlot;
import org.jwarp.engine.ring.SpscSlotRing;
import org.jwarp.engine.runtime.EngineWorker;
import org.jwarp.stack.RdmapStream;
import org.jwarp.stack.WorkQueue;
import org.jwarp.verbs.CounterNames;
import org.jwarp.verbs.CounterSet;
import org.jwarp.verbs.Counters;
import org.jwarp.verbs.PostStatus;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpAttr;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QpState;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.RecvWr;
import org.jwarp.verbs.SendWr;

/**
 * An RC queue pair. The posting thread copies each work request into a slot of the send or
 * receive ring and rings its engine thread's doorbell — it never touches a socket (seed 001's
 * host/offload-engine split). The engine thread that owns the QP runs its {@link RdmapStream}.
 *
 * <p>Created in INIT (as rdma_cm's {@code rdma_create_qp} does), so receives can be posted before
 * the connection is made; the connection manager moves it to RTR and RTS, an error to ERROR. Its
 * state has one writer, the owning engine thread ({@link QpLifecycle}): {@link #modify} is a
 * command to it, and returns once carried out.
 */
public final class JwarpQp implements QueuePair {

    /**
     * A QP's counters: the standard ones, the bytes its stream placed straight from the socket, and
     * the system calls on its socket.
     */
    public static final List<String> COUNTER_NAMES = counterNames();

    private static List<String> counterNames() {
        List<String> names = new ArrayList<>(CounterNames.STANDARD);
        names.add(CounterNames.RX_DIRECT_BYTES);
        names.add(CounterNames.SOCKET_WRITES);
        names.add(CounterNames.SOCKET_READS);
        return List.copyOf(names);
    }

    private final JwarpDevice device;
    private final JwarpPd pd;
    private final QpInitAttr attr;
    private final int qpNum;
    /** The engine thread that owns this QP, and how commands reach it. */
    private final QpOwner owner;
    private final SpscSlotRing<SendSlot> sq;
    private final SpscSlotRing<RecvWr> rq;
    private final SendPoster sends;
    private final CounterSet counters;
    private final WorkQueue<SendWr> sendQueue;
    private final WorkQueue<RecvWr> recvQueue;
    /** The shared receive queue the QP's incoming messages consume, or null. */
    private final JwarpSrq srq;
    private final QpLifecycle lifecycle = new QpLifecycle();
    /** Engine-thread only: the protocol machine; a new one after each RESET. */
    private RdmapStream stream;
    private volatile QpAttr connectionAttr;
    private volatile boolean closed;
    private final Runnable flush = () -> stream.flush();
    /** Set once by connect or accept: a QP carries one connection (its state stays INIT until the peer answers). */
    private final AtomicBoolean bound = new AtomicBoolean();
    /** Engine-thread only: the TCP connection carrying this QP's stream, once there is one. */
    private Connection connection;

    /** Engine thread: this QP's stream (a new one after a reset). */
    public RdmapStream stream() {
        return stream;
    }

    /** Engine thread: the connection carrying this QP, or null. */
    public Connection connection() {
        return connection;
    }

    /** Engine thread: the QP is now carried by {@code c} (at accept or connect). */
    public void connection(Connection c) {
        connection = c;
    }
    /** Its index in its device's list of QPs ({@link IndexedList}, under that list's lock). */
    private int listSlot = -1;

    /** This QP's slot in the device's list of open QPs ({@link org.jwarp.engine.runtime.IndexedList}). */
    public int listSlot() {
        return listSlot;
    }

    public void listSlot(int slot) {
        listSlot = slot;
    }

    JwarpQp(JwarpDevice device, JwarpPd pd, QpInitAttr attr, int qpNum, EngineWorker worker) {
        this.device = device;
        this.pd = pd;
        this.attr = attr;
        this.qpNum = qpNum;
        this.owner = new QpOwner(device, worker);
        int maxInline = attr.maxInlineData();
        this.sq = new SpscSlotRing<>(attr.maxSendWr(), () -> new SendSlot(attr.maxSendSge(), maxInline));
        // with a shared receive queue the QP's own stays empty (its slots are made on first use only)
        this.rq = new SpscSlotRing<>(attr.maxRecvWr(), () -> new RecvWr(attr.maxRecvSge()));
        this.sends = new SendPoster(this, device, attr, lifecycle, sq);
        this.counters = new CounterSet(CounterScopes.qp(qpNum), COUNTER_NAMES);
        this.sendQueue = new WorkQueue<>() {
            @Override
            public SendWr peek() {
                SendSlot s = sq.peek();
                return s == null ? null : s.wr();
            }

            @Override
            public void advance() {
                sq.release();
            }
        };
        this.srq = (JwarpSrq) attr.srq();
        this.recvQueue = srq != null ? srq.view() : new WorkQueue<>() {
            @Override
            public RecvWr peek() {
                return rq.peek();
            }

            @Override
            public void advance() {
                rq.release();
            }
        };
        this.stream = newStream();
    }

    private RdmapStream newStream() {
        return new RdmapStream(qpNum, pd.handle(), pd.stags(), sendQueue, recvQueue,
                ((JwarpCq) attr.sendCq()).producer(), ((JwarpCq) attr.recvCq()).producer(), attr.signalAll(),
                maxSge(), counters);
    }

    /** Scatter/gather entries a request of this QP may have (either queue). */
    public int maxSge() {
        return Math.max(attr.maxSendSge(), attr.maxRecvSge());
    }

    @Override
    public RdmaDevice device() {
        return device;
    }

    @Override
    public ProtectionDomain pd() {
        return pd;
    }

    @Override
    public int qpNum() {
        return qpNum;
    }

    @Override
    public QpInitAttr initAttr() {
        return attr;
    }

    @Override
    public QpState state() {
        return lifecycle.state();
    }

    /** The state machine; its transitions are made on the owning engine thread only. */
    public QpLifecycle lifecycle() {
        return lifecycle;
    }

    public EngineWorker worker() {
        return owner.worker();
    }

    public void connectionAttr(QpAttr a) {
        connectionAttr = a;
    }

    /**
     * Connect or accept takes this QP for its connection; false if one already did. The state stays
     * INIT until the MPA exchange is done (RTR), then RTS once established.
     */
    public boolean bind() {
        return bound.compareAndSet(false, true);
    }

    /**
     * Connect or accept (setup path, before any connection of this QP exists): the engine thread
     * RSS chose for the connection owns this QP from now on.
     */
    public void adopt(EngineWorker worker, int entry) {
        owner.adopt(worker, entry);
    }

    public int rssEntry() {
        return owner.rssEntry();
    }

    /** Runs {@code command} on the engine thread that owns this QP ({@link QpOwner#onOwner}). */
    public void onOwner(Runnable command) {
        owner.onOwner(command);
    }

    /** Rebalancing: this QP and its connection move to {@code target} ({@link QpOwner#moveTo}). */
    void moveTo(EngineWorker target) {
        owner.moveTo(target, () -> connection);
    }

    /** A connect that could not start gives the QP back. */
    public void unbind() {
        bound.set(false);
    }

    @Override
    public void modify(QpState target) {
        lifecycle.checkModify(target);
        owner.runOnOwner(() -> modifyOnEngine(target));
    }

    /** Engine thread: carries out {@code modify(target)}. */
    private void modifyOnEngine(QpState target) {
        lifecycle.checkModify(target);     // the engine may have moved the state since the caller looked
        switch (target) {
            case ERROR -> {
                // the stream stops and every outstanding request flushes
                if (connection != null) {
                    connection.abort();
                } else {
                    stream.connectionLost();
                }
                lifecycle.modify(QpState.ERROR);
            }
            case RESET -> {
                Connection c = connection;
                connection = null;
                if (c != null) {
                    c.abandon();
                }
                // OFED: RESET empties both queues without completions, and the QP forgets its connection
                while (sq.peek() != null) {
                    sq.release();
                }
                while (rq.peek() != null) {
                    rq.release();
                }
                stream = newStream();
                connectionAttr = null;
                bound.set(false);
                lifecycle.modify(QpState.RESET);
            }
            default -> lifecycle.modify(target);
        }
    }

    @Override
    public Optional<QpAttr> connectionAttr() {
        return Optional.ofNullable(connectionAttr);
    }

    @Override
    public int postSend(SendWr wr) {
        return sends.post(wr);
    }

    /**
     * A list is one doorbell, as on a NIC: the engine sees every request of it in one duty cycle,
     * so that they leave in one system call (in invoker and hybrid modes the cycle runs here, once).
     */
    @Override
    public int postSend(SendWr[] wrs, int count) {
        return sends.post(wrs, count);
    }

    @Override
    public int postRecv(RecvWr wr) {
        return postRecv1(wr, 0);
    }

    @Override
    public int postRecv(RecvWr[] wrs, int count) {
        for (int i = 0; i < count; i++) {
            int rc = postRecv1(wrs[i], i);
            if (rc != PostStatus.OK) {
                return rc;
            }
        }
        return PostStatus.OK;
    }

    private int postRecv1(RecvWr wr, int index) {
        if (closed) {
            return PostStatus.error(PostStatus.QP_DESTROYED, index);
        }
        if (srq != null) {
            return PostStatus.error(PostStatus.INVALID_WR, index);   // OFED: post to the SRQ instead
        }
        QpState s = lifecycle.state();
        if (!s.acceptsRecv()) {
            return PostStatus.error(PostStatus.INVALID_STATE, index);
        }
        int check = wr.check(attr.maxRecvSge());
        if (check != PostStatus.OK) {
            return PostStatus.error(check, index);
        }
        if (s == QpState.ERROR && device.failed()) {
            return PostStatus.error(PostStatus.DEVICE_FATAL, index); // no engine would flush it
        }
        RecvWr slot = rq.claim();
        if (slot == null) {
            return PostStatus.error(PostStatus.QUEUE_FULL, index);
        }
        slot.copyFrom(wr);
        rq.publish();
        if (s == QpState.ERROR) {
            flushSoon();
        }
        return PostStatus.OK;
    }

    /** A request posted in ERROR completes with a flush (error path: a command to the engine). */
    void flushSoon() {
        onOwner(flush);
    }

    /**
     * Whether the engine thread parked this QP's connection ({@link EngineScheduler}): it is
     * not visited until something calls for it, and a post must tell the engine. Written by the
     * engine thread.
     */
    private volatile boolean parked;

    /** A poster: whether the connection is parked now. */
    boolean isParked() {
        return parked;
    }

    /** Whether {@link #close} ran: posts are refused. */
    boolean isClosed() {
        return closed;
    }
    /** 1 while this QP is on its engine thread's list of posts to parked connections. */
    private volatile int listed;
    private static final VarHandle LISTED;

    static {
        try {
            LISTED = MethodHandles.lookup().findVarHandle(JwarpQp.class, "listed", int.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /** The next QP on the engine thread's list of posts to parked connections (written before the push). */
    private JwarpQp nextListed;

    /** The next QP on the engine's posted-while-parked stack (engine thread and the pushing poster). */
    public JwarpQp nextListed() {
        return nextListed;
    }

    public void nextListed(JwarpQp next) {
        nextListed = next;
    }

    /** Engine thread: the connection is parked, or visited again. */
    public void parked(boolean p) {
        parked = p;
    }

    /** A poster: takes this QP onto the list; false if it is on it already. */
    public boolean list() {
        return listed == 0 && LISTED.compareAndSet(this, 0, 1);
    }

    /** Engine thread: the QP left the list (a later post may put it on again). */
    public void unlist() {
        listed = 0;
    }

    /** Engine thread: whether the send queue holds a request not yet taken. */
    public boolean hasPosted() {
        return sq.peek() != null;
    }

    /** The counters, for the owner thread to update. */
    public CounterSet counterSet() {
        return counters;
    }

    @Override
    public Counters counters() {
        return counters;
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        onOwner(() -> {
            if (connection != null) {
                connection.disconnect();
            }
            owner.worker().forget(this);
        });
        device.qpClosed(this);
        if (srq != null) {
            srq.detach();
        }
    }

    @Override
    public String toString() {
        return "QP " + qpNum + " (" + lifecycle + ")";
    }
}
