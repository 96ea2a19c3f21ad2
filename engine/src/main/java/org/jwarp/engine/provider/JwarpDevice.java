package org.jwarp.engine.provider;

import java.io.IOException;
import java.lang.foreign.MemorySegment;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.BooleanSupplier;
import org.jwarp.engine.cm.JwarpConnectionManager;
import org.jwarp.engine.counters.CounterPublisher;
import org.jwarp.engine.counters.CounterScopes;
import org.jwarp.engine.datapath.Connection;
import org.jwarp.engine.ring.RingCapacity;
import org.jwarp.engine.rss.Rebalancer;
import org.jwarp.engine.rss.RssConfig;
import org.jwarp.engine.rss.RssSteering;
import org.jwarp.engine.runtime.EngineThreads;
import org.jwarp.engine.runtime.EngineWorker;
import org.jwarp.engine.runtime.IndexedList;
import org.jwarp.stack.StagTable;
import org.jwarp.sys.NanoClock;
import org.jwarp.verbs.AcceptParams;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventHandler;
import org.jwarp.verbs.CompletionChannel;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.ConnectionManager;
import org.jwarp.verbs.Counters;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.Moderation;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;
import org.jwarp.verbs.SharedReceiveQueue;
import org.jwarp.verbs.SrqInitAttr;

/**
 * A jwarp device: the STag table, the engine threads (or, in invoker mode, one duty cycle that the
 * application's calls run), and the factories for the verbs objects.
 */
public final class JwarpDevice implements RdmaDevice {

    /** Devices opened in this process: each publishes its counters under its own index. */
    private static final AtomicInteger DEVICES = new AtomicInteger();

    private final DeviceConfig config;
    /** The engine's own settings: {@code config}'s provider configuration. */
    private final JwarpConfig jwarp;
    /** The time every engine rule of this device reads (timers, traffic, setup deadlines): {@link JwarpConfig#clock()}. */
    private final NanoClock clock;
    private final StagTable stags;
    private final EngineThreads engines;
    private final NodeLocalMemory registeredMemory = new NodeLocalMemory();
    /** Seed 004's rebalancer, when there are engine threads to balance and the configuration asks for it; else null. */
    private final Rebalancer rebalancer;
    private final AtomicInteger handles = new AtomicInteger();
    private final AtomicInteger qpNumbers = new AtomicInteger(0x10);
    private final JwarpConnectionManager cm;
    private final IndexedList<JwarpQp> qps = new IndexedList<>(JwarpQp::listSlot, JwarpQp::listSlot);
    /** How the connections use their sockets: the I/O layer, the peer timeout. */
    private final DeviceSockets sockets;
    private final int index = DEVICES.getAndIncrement();
    private final DeviceCounters counters = new DeviceCounters(this);
    private volatile boolean closed;
    /** What stopped an engine thread, or null. */
    private volatile Throwable failure;

    /** {@code jwarp}: {@code config}'s provider configuration, or the defaults it stands for if it has none. */
    JwarpDevice(DeviceConfig config, JwarpConfig jwarp) {
        this.config = config.providerConfig() == jwarp ? config : config.toBuilder().provider(jwarp).build();
        this.jwarp = jwarp;
        this.clock = jwarp.clock();
        this.stags = new StagTable(config.limits().maxMrs());
        this.sockets = new DeviceSockets(config, jwarp, stags);
        this.engines = new EngineThreads(this, jwarp);
        cm = new JwarpConnectionManager(this);
        counters.publish();
        engines.start();
        rebalancer = engines.workers().length > 1 && jwarp.rss().rebalance() != RssConfig.Rebalance.OFF
                && !sockets.direct() ? new Rebalancer(this, jwarp.rss()) : null;
        if (rebalancer != null) {
            rebalancer.start();
        }
    }

    /** Index of this device among those the process opened (its counters file says it too). */
    public int index() {
        return index;
    }

    /** The counters file, or null if the device does not publish one. */
    Path counterFile() {
        return counters.file();
    }

    /**
     * Every counter group, in the stable order {@code jwarp stat} shows: the device total, each
     * engine thread, the connection manager ({@code cm}), each queue pair (by QP number). Setup path
     * (allocates).
     */
    List<Counters> counterGroups() {
        return counters.groups();
    }

    @Override
    public String providerName() {
        return JwarpProvider.NAME;
    }

    /** {@return the configuration the device was opened with, its provider configuration the {@link #jwarpConfig()} in use} */
    @Override
    public DeviceConfig config() {
        return config;
    }

    /** {@return the engine's own settings} */
    public JwarpConfig jwarpConfig() {
        return jwarp;
    }

    @Override
    public boolean needsInvoke() {
        return jwarp.threadingMode() == JwarpConfig.ThreadingMode.INVOKER;
    }

    /** Invoker and hybrid modes: a waiting thread runs the engine and sleeps in it (hybrid: {@code EngineWaiter}). */
    @Override
    public boolean waitsInEngine() {
        return jwarp.threadingMode() != JwarpConfig.ThreadingMode.DEDICATED;
    }

    /** How this device's connections use their sockets. */
    public DeviceSockets sockets() {
        return sockets;
    }

    StagTable stags() {
        return stags;
    }

    @Override
    public String socketIoLayer() {
        return sockets.layerName();
    }

    @Override
    public ProtectionDomain allocPd() {
        checkOpen();
        return new JwarpPd(this, handles.incrementAndGet());
    }

    @Override
    public CompletionChannel createCompletionChannel(Moderation moderation) {
        checkOpen();
        JwarpChannel ch = new JwarpChannel(this, moderation == null ? Moderation.NONE : moderation);
        engines.listenerWorker().execute(() -> engines.listenerWorker().addChannel(ch));
        return ch;
    }

    void channelClosed(JwarpChannel ch) {
        engines.listenerWorker().execute(() -> engines.listenerWorker().removeChannel(ch));
    }

    @Override
    public CompletionQueue createCq(int depth, CompletionChannel channel) {
        checkOpen();
        if (depth < 1) {
            throw new IllegalArgumentException("CQ depth must be at least 1: " + depth);
        }
        if (depth > config.limits().maxCqDepth()) {
            throw new IllegalArgumentException("CQ depth " + depth + " exceeds the device's maxCqDepth "
                    + config.limits().maxCqDepth());
        }
        if (channel != null && !(channel instanceof JwarpChannel)) {
            throw new IllegalArgumentException("the completion channel belongs to another provider");
        }
        // the ring holds a power of two; depth() reports it, as ibv_create_cq reports cqe
        return new JwarpCq(this, handles.incrementAndGet(), RingCapacity.roundUp(depth, RingCapacity.MIN_MPSC),
                (JwarpChannel) channel);
    }

    @Override
    public QueuePair createQp(ProtectionDomain pd, QpInitAttr attr) {
        checkOpen();
        if (!(pd instanceof JwarpPd jpd) || pd.device() != this) {
            throw new IllegalArgumentException("the protection domain belongs to another device");
        }
        if (!(attr.sendCq() instanceof JwarpCq) || !(attr.recvCq() instanceof JwarpCq)) {
            throw new IllegalArgumentException("the completion queues belong to another provider");
        }
        attr.checkAgainst(config.limits());
        if (attr.srq() != null && (!(attr.srq() instanceof JwarpSrq) || attr.srq().pd() != pd)) {
            throw new IllegalArgumentException("the shared receive queue must belong to the queue pair's protection domain");
        }
        // the rings hold powers of two; initAttr() reports the depths allocated, as ibv_create_qp
        // writes the actual ibv_qp_cap back
        QpInitAttr actual = new QpInitAttr(attr.sendCq(), attr.recvCq(),
                RingCapacity.roundUp(attr.maxSendWr(), RingCapacity.MIN_SPSC),
                RingCapacity.roundUp(attr.maxRecvWr(), RingCapacity.MIN_SPSC), attr.maxSendSge(), attr.maxRecvSge(),
                attr.maxInlineData(), attr.signalAll(), attr.srq());
        synchronized (qps) {
            // the limit RdmaDevice.createQp promises (and a peer asking for many connections meets)
            if (qps.size() >= config.limits().maxQps()) {
                throw new IllegalStateException("the device has " + qps.size() + " queue pairs, its limit (maxQps "
                        + config.limits().maxQps() + "); close one or raise DeviceLimits.maxQps");
            }
            if (actual.srq() != null) {
                ((JwarpSrq) actual.srq()).attach();
            }
            JwarpQp qp = new JwarpQp(this, jpd, actual, qpNumbers.incrementAndGet(), pickWorker());
            qps.add(qp);
            return qp;
        }
    }

    @Override
    public SharedReceiveQueue createSrq(ProtectionDomain pd, SrqInitAttr attr) {
        checkOpen();
        if (!(pd instanceof JwarpPd jpd) || pd.device() != this) {
            throw new IllegalArgumentException("the protection domain belongs to another device");
        }
        attr.checkAgainst(config.limits());
        return new JwarpSrq(jpd, RingCapacity.roundUp(attr.maxWr(), RingCapacity.MIN_MPSC), attr.maxSge(), attr.limit());
    }

    /** NUMA placement ({@link JwarpConfig#numa()}): registered memory goes to its registering thread's node. */
    void placeRegisteredMemory(MemorySegment segment) {
        if (jwarp.numa()) {
            registeredMemory.place(segment);
        }
    }

    /** The QPs open now (a copy; setup path). */
    public List<JwarpQp> openQps() {
        synchronized (qps) {
            return List.copyOf(qps.view());
        }
    }

    void qpClosed(JwarpQp qp) {
        synchronized (qps) {
            if (qps.remove(qp)) {
                qp.worker().retire(qp.counters());
            }
        }
    }

    @Override
    public ConnectionManager connectionManager() {
        return cm;
    }

    /**
     * The application accepted {@code c} with {@code qp}: the QP joins the engine thread that owns
     * the connection (RSS chose it when TCP accepted), which carries out the accept.
     */
    public void acceptOn(Connection c, JwarpQp qp, AcceptParams params, CompletableFuture<Void> replySent) {
        EngineWorker owner = c.owner();
        qp.adopt(owner, c.rssEntry());
        owner.execute(() -> c.responder().accept(qp, params.privateData(), params.ord(), params.ird(), replySent));
    }

    public void rejectOn(Connection c, byte[] privateData, CompletableFuture<Void> replySent) {
        c.owner().execute(() -> c.responder().reject(privateData, replySent));
    }

    /** Delivers a connection event on the engine thread; a handler's exception is reported, not lost. */
    public void deliver(CmEventHandler handler, CmEvent event) {
        try {
            handler.onCmEvent(event);
        } catch (RuntimeException | Error e) {
            report(new IllegalStateException("connection event handler failed on " + event, e));
        }
    }

    /**
     * An engine thread's loop failed (what one connection's work throws is caught and ends only
     * that connection; this is what escaped anyway). On the dying thread, which still owns its
     * connections: every connection ends with its event and every outstanding request is flushed,
     * and the device records the failure ({@link #failure()}), OFED's fatal device event.
     */
    public void engineDied(EngineWorker w, Throwable failure) {
        this.failure = failure;
        report(failure);
        w.failAll(failure);
    }

    @Override
    public java.util.Optional<Throwable> failure() {
        return java.util.Optional.ofNullable(failure);
    }

    /** {@return the time every engine rule of this device reads ({@link JwarpConfig#clock()})} */
    public NanoClock clock() {
        return clock;
    }

    /** Setup-path failures nobody is waiting for: printed with their cause, never swallowed. */
    public void report(Throwable t) {
        System.err.println("jwarp: " + t.getMessage());
        t.printStackTrace(System.err);
    }

    /** A listener dropped a client to make room (silent under pressure, or the oldest at its bound). */
    public void setupRefused() {
        counters.setupRefused();
    }

    /** The sum over {@link #engineCounters()}: every QP's, open or closed since, and every doorbell. */
    @Override
    public Counters counters() {
        return Counters.sum(CounterScopes.DEVICE, engineCounters());
    }

    /**
     * Per engine thread: its doorbell figures (doorbells, wake-ups, parks) and the sums of the
     * standard counters of the QPs it carries and of those it carried that closed.
     */
    @Override
    public List<Counters> engineCounters() {
        return counters.engines();
    }

    /** The engine threads, or the duty cycle the application's calls run. */
    public EngineThreads engines() {
        return engines;
    }

    public boolean invokerMode() {
        return engines.invokerMode();
    }

    /** See {@link EngineThreads#runOnEngine}. */
    void runOnEngine(EngineWorker worker, Runnable command) {
        checkOpen();
        engines.runOnEngine(worker, command);
    }

    /** See {@link EngineThreads#awaitEngineCycles}. */
    void awaitEngineCycles() {
        if (!closed) {
            engines.awaitEngineCycles();
        }
    }

    EngineWorker pickWorker() {
        return engines.pickWorker();
    }

    public EngineWorker listenerWorker() {
        return engines.listenerWorker();
    }

    /** The engine thread for a connection with {@code peer} arriving at {@code local} (RSS). */
    public RssSteering.Choice steer(InetSocketAddress peer, InetSocketAddress local) {
        return engines.steer(peer, local);
    }

    /**
     * Rebalancing (seed 004): table entry {@code entry} names engine thread {@code engine} from now
     * on, and every connection of that entry moves there with its QP, under traffic (see
     * {@link JwarpQp#moveTo}). Returns how many QPs moved: none on {@code uring-direct}, whose
     * sockets stay in their engine thread's rings.
     */
    public int moveEntry(int entry, int engine) {
        checkOpen();
        if (sockets.direct()) {
            return 0;       // a direct socket lives in its engine thread's rings: its connection does not move
        }
        RssSteering steering = engines.steering();
        steering.assign(entry, engine);
        EngineWorker target = steering.worker(engine);
        List<JwarpQp> moving = new ArrayList<>();
        synchronized (qps) {
            for (JwarpQp qp : qps.view()) {
                if (qp.rssEntry() == entry && qp.worker() != target) {
                    moving.add(qp);
                }
            }
        }
        for (JwarpQp qp : moving) {
            qp.moveTo(target);
        }
        return moving.size();
    }

    int connectionCount() throws InterruptedException {
        return engines.connectionCount();
    }

    @Override
    public boolean invokeUntil(BooleanSupplier done, long timeout, TimeUnit unit) throws InterruptedException {
        return engines.invoker() == null ? RdmaDevice.super.invokeUntil(done, timeout, unit)
                : engines.invokeUntil(done, timeout, unit);
    }

    @Override
    public int invoke() {
        return engines.invoke();
    }

    /**
     * INVOKER and HYBRID modes: {@code part} of the duty cycle, then the whole one, here; false if
     * none ran (another thread is in one).
     */
    boolean tryInvoke(java.util.function.IntSupplier part) {
        return engines.tryInvoke(part);
    }

    /** True once an engine thread died ({@link #failure()}); a volatile read, for error paths. */
    boolean failed() {
        return failure != null;
    }

    /**
     * Setup paths that need a working engine (connect, listen): a device whose engine died does
     * not take new work, which would never be carried out.
     */
    public void checkUsable() {
        checkOpen();
        if (failure != null) {
            throw new IllegalStateException("the device failed and takes no new connections (" + failure
                    + "); close it and open another");
        }
    }

    private void checkOpen() {
        if (closed) {
            throw new IllegalStateException("the device is closed");
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        // Stop the engine threads first; once stopped, their connections belong to this thread,
        // which closes every socket — as the kernel does when a process dies — and flushes every QP.
        if (rebalancer != null) {
            rebalancer.close();
        }
        RuntimeException failure = engines.stop();
        CounterPublisher.Registration publication = counters.publication();
        if (publication != null) {
            try {
                publication.close(); // the file goes with the device
            } catch (IOException e) {
                report(new IOException("removing the counters file " + publication.writer().path() + " failed", e));
            }
        }
        if (failure != null) {
            throw failure;
        }
    }
}
