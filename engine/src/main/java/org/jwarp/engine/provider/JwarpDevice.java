package org.jwarp.engine.provider;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.jwarp.engine.agent.AgentInvoker;
import org.jwarp.engine.agent.AgentRunner;
import org.jwarp.engine.counters.CounterFile;
import org.jwarp.engine.counters.CounterFileReader;
import org.jwarp.engine.counters.CounterFileWriter;
import org.jwarp.engine.counters.CounterPublisher;
import org.jwarp.engine.counters.CounterScopes;
import org.jwarp.engine.idle.DeadlineParker;
import org.jwarp.engine.idle.IdleStrategies;
import org.jwarp.engine.idle.IdleStrategy;
import org.jwarp.engine.idle.Parker;
import org.jwarp.engine.ring.RingCapacity;
import org.jwarp.stack.StagTable;
import org.jwarp.verbs.AcceptParams;
import org.jwarp.verbs.CmEvent;
import org.jwarp.verbs.CmEventHandler;
import org.jwarp.verbs.CompletionChannel;
import org.jwarp.verbs.CompletionQueue;
import org.jwarp.verbs.ConnectionManager;
import org.jwarp.verbs.CounterNames;
import org.jwarp.verbs.CounterSet;
import org.jwarp.verbs.Counters;
import org.jwarp.verbs.DeviceConfig;
import org.jwarp.verbs.Moderation;
import org.jwarp.verbs.ProtectionDomain;
import org.jwarp.verbs.QpInitAttr;
import org.jwarp.verbs.QueuePair;
import org.jwarp.verbs.RdmaDevice;

/**
 * A jwarp device: the STag table, the engine threads (or, in invoker mode, one duty cycle that the
 * application's calls run), and the factories for the verbs objects.
 */
final class JwarpDevice implements RdmaDevice {

    /** Devices opened in this process: each publishes its counters under its own index. */
    private static final AtomicInteger DEVICES = new AtomicInteger();

    private final DeviceConfig config;
    private final StagTable stags;
    private final EngineWorker[] workers;
    private final AgentRunner[] runners;
    private final AgentInvoker invoker;
    /** HYBRID mode: the thread that runs the engine while no application thread does; else null. */
    private final StandbyEngine standby;
    /** Held by whoever runs the invoked duty cycle (an application thread or the standby). */
    private final AtomicBoolean invoking = new AtomicBoolean();
    /** The thread in the invoked duty cycle (written and cleared under {@link #invoking}; read by itself). */
    private Thread invokingThread;
    /** Duty cycles application threads ran ({@link #invoke()}); written under {@link #invoking}. */
    private final AtomicLong invocations = new AtomicLong();
    private final AtomicInteger handles = new AtomicInteger();
    private final AtomicInteger qpNumbers = new AtomicInteger(0x10);
    private final AtomicInteger nextWorker = new AtomicInteger();
    private final JwarpConnectionManager cm;
    private final List<JwarpQp> qps = new ArrayList<>();
    private final long rxDirectFrom = SocketReceiver.configuredDirectFrom();
    private final int index = DEVICES.getAndIncrement();
    private final CounterPublisher.Registration publication;
    private volatile boolean closed;
    /** Clients listeners refused because their backlog of pending setups was full. */
    private final java.util.concurrent.atomic.AtomicLong setupsRefused = new java.util.concurrent.atomic.AtomicLong();
    /** What stopped an engine thread, or null. */
    private volatile Throwable failure;

    JwarpDevice(DeviceConfig config) {
        this.config = config;
        this.stags = new StagTable(config.limits().maxMrs());
        boolean invokerMode = config.threadingMode() != DeviceConfig.ThreadingMode.DEDICATED;
        int n = invokerMode ? 1 : config.engineThreads();
        workers = new EngineWorker[n];
        for (int i = 0; i < n; i++) {
            workers[i] = new EngineWorker(this, i);
        }
        if (invokerMode) {
            runners = new AgentRunner[0];
            invoker = new AgentInvoker(workers[0]).start();
            standby = config.threadingMode() == DeviceConfig.ThreadingMode.HYBRID
                    ? new StandbyEngine(this, IdleStrategies.create(config, invokerParker()))
                    : null;
        } else {
            invoker = null;
            standby = null;
            runners = new AgentRunner[n];
            for (int i = 0; i < n; i++) {
                EngineWorker w = workers[i];
                // the doorbell ends a park when work is posted; the deadline keeps moderation timers on time
                AgentRunner.Builder b = AgentRunner.builder(w)
                        .idleStrategy(IdleStrategies.create(config, new DeadlineParker(w.doorbell(), w::nanosToNextDeadline)))
                        // an engine thread that dies says so at once, with its cause, and ends its
                        // connections (the handler runs on that thread, the connections' owner)
                        .errorHandler(f -> engineDied(w, f))
                        .daemon(true);
                if (!config.cpuList().isEmpty()) {
                    b.cpu(config.cpuList().get(i % config.cpuList().size()));
                }
                runners[i] = b.build().start();
            }
        }
        cm = new JwarpConnectionManager(this);
        publication = publishCounters();
        if (standby != null) {
            standby.start();
        }
    }

    /**
     * DESIGN rule 9: the counters go to a file other processes read ({@code jwarp stat}). A device
     * that cannot create it still works; it says so in one line.
     */
    private CounterPublisher.Registration publishCounters() {
        Path dir = CounterFile.directory();
        if (dir == null) {
            return null;
        }
        String label = JwarpProvider.NAME + " " + config.threadingMode().name().toLowerCase(Locale.ROOT)
                + (invokerMode() ? "" : " x" + workers.length);
        try {
            CounterFileWriter w = CounterFileWriter.create(dir, ProcessHandle.current().pid(),
                    CounterFileReader.processStartMillis(), index, label, CounterFile.periodMillis());
            return CounterPublisher.get().register(w, this::counterGroups, label);
        } catch (IOException e) {
            System.err.println("jwarp: device " + index + " does not publish its counters (" + e
                    + "); set -D" + CounterFile.DIRECTORY_PROPERTY + "=DIR to choose a writable directory");
            return null;
        }
    }

    /** Index of this device among those the process opened (its counters file says it too). */
    int index() {
        return index;
    }

    /** The counters file, or null if the device does not publish one. */
    Path counterFile() {
        return publication == null ? null : publication.writer().path();
    }

    /**
     * Every counter group, in the stable order {@code jwarp stat} shows: the device total, each
     * engine thread, the connection manager ({@code cm}), each queue pair (by QP number). Setup path
     * (allocates).
     */
    List<Counters> counterGroups() {
        List<Counters> engines = engineCounters();
        List<Counters> all = new ArrayList<>();
        all.add(Counters.sum(CounterScopes.DEVICE, engines));
        all.addAll(engines);
        CounterSet cmGroup = new CounterSet(CounterScopes.CM, List.of(CounterNames.SETUPS_REFUSED));
        cmGroup.add(0, setupsRefused.get());
        all.add(cmGroup);
        synchronized (qps) {
            for (JwarpQp qp : qps) {
                all.add(qp.counters());
            }
        }
        return all;
    }

    @Override
    public String providerName() {
        return JwarpProvider.NAME;
    }

    @Override
    public DeviceConfig config() {
        return config;
    }

    /** Payload bytes from which a segment is read straight into its target ({@link SocketReceiver}). */
    long rxDirectFrom() {
        return rxDirectFrom;
    }

    StagTable stags() {
        return stags;
    }

    /** INVOKER or HYBRID mode: an application thread that polls or posts runs the duty cycle. */
    boolean invokerMode() {
        return invoker != null;
    }

    /** HYBRID mode's standby engine thread, or null. */
    StandbyEngine standby() {
        return standby;
    }

    /** Duty cycles application threads have run (HYBRID mode's standby watches it). */
    long invocations() {
        return invocations.get();
    }

    /**
     * HYBRID mode's standby thread: one duty cycle, or -1 if an application thread is in one. Not
     * counted in {@link #invocations()}.
     */
    int standbyCycle() {
        if (!invoking.compareAndSet(false, true)) {
            return -1;
        }
        invokingThread = Thread.currentThread();
        try {
            return invoker.invoke();
        } finally {
            invokingThread = null;
            invoking.set(false);
        }
    }

    /** Ends a park of whoever sleeps on the invoked engine's doorbell. */
    void wakeEngine() {
        workers[0].doorbell().wakeWaiter();
    }

    AgentInvoker invoker() {
        return invoker;
    }

    /**
     * Invoker mode: how a thread waiting in a blocking verb parks between duty cycles, as the
     * engine thread would: on the engine's doorbell, which sleeps in the selector of the engine's
     * sockets (so arriving data and posts end the park), bounded by the moderation timers.
     */
    Parker invokerParker() {
        EngineWorker w = workers[0];
        return new DeadlineParker(w.doorbell(), w::nanosToNextDeadline);
    }

    /**
     * Connections the engine threads carry, each counted on its own thread (setup path; tests use
     * it to see that ended connections are released).
     */
    int connectionCount() throws InterruptedException {
        int sum = 0;
        for (EngineWorker w : workers) {
            CompletableFuture<Integer> n = new CompletableFuture<>();
            w.execute(() -> n.complete(w.connectionCount()));
            try {
                sum += n.get(10, TimeUnit.SECONDS);
            } catch (java.util.concurrent.ExecutionException | java.util.concurrent.TimeoutException e) {
                throw new IllegalStateException("engine thread " + w.roleName() + " did not answer", e);
            }
        }
        return sum;
    }

    /** The engine thread for a new QP (round robin until RSS steers connections). */
    EngineWorker pickWorker() {
        return workers[Math.floorMod(nextWorker.getAndIncrement(), workers.length)];
    }

    EngineWorker listenerWorker() {
        return workers[0];
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
        workers[0].execute(() -> workers[0].addChannel(ch));
        return ch;
    }

    void channelClosed(JwarpChannel ch) {
        workers[0].execute(() -> workers[0].removeChannel(ch));
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
        // the rings hold powers of two; initAttr() reports the depths allocated, as ibv_create_qp
        // writes the actual ibv_qp_cap back
        QpInitAttr actual = new QpInitAttr(attr.sendCq(), attr.recvCq(),
                RingCapacity.roundUp(attr.maxSendWr(), RingCapacity.MIN_SPSC),
                RingCapacity.roundUp(attr.maxRecvWr(), RingCapacity.MIN_SPSC), attr.maxSendSge(), attr.maxRecvSge(),
                attr.maxInlineData(), attr.signalAll());
        synchronized (qps) {
            // the limit RdmaDevice.createQp promises (and a peer asking for many connections meets)
            if (qps.size() >= config.limits().maxQps()) {
                throw new IllegalStateException("the device has " + qps.size() + " queue pairs, its limit (maxQps "
                        + config.limits().maxQps() + "); close one or raise DeviceLimits.maxQps");
            }
            JwarpQp qp = new JwarpQp(this, jpd, actual, qpNumbers.incrementAndGet(), pickWorker());
            qps.add(qp);
            return qp;
        }
    }

    void qpClosed(JwarpQp qp) {
        synchronized (qps) {
            qps.remove(qp);
        }
    }

    @Override
    public ConnectionManager connectionManager() {
        return cm;
    }

    /** Engine thread of the connection: the application accepted with {@code qp}. */
    void acceptOn(Connection c, JwarpQp qp, AcceptParams params, CompletableFuture<Void> replySent) {
        EngineWorker owner = listenerWorker();
        owner.execute(() -> {
            if (!c.accept(qp, params.privateData(), params.ord(), params.ird(), replySent)) {
                return;
            }
            if (qp.worker() != owner) {
                // the QP's engine thread carries the connection from here on
                owner.removeConnection(c);
                qp.worker().execute(() -> qp.worker().addConnection(c));
            }
        });
    }

    void rejectOn(Connection c, byte[] privateData, CompletableFuture<Void> replySent) {
        listenerWorker().execute(() -> c.reject(privateData, replySent));
    }

    /** Delivers a connection event on the engine thread; a handler's exception is reported, not lost. */
    void deliver(CmEventHandler handler, CmEvent event) {
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
    private void engineDied(EngineWorker w, Throwable failure) {
        this.failure = failure;
        report(failure);
        w.failAll(failure);
    }

    @Override
    public java.util.Optional<Throwable> failure() {
        return java.util.Optional.ofNullable(failure);
    }

    /** Setup-path failures nobody is waiting for: printed with their cause, never swallowed. */
    void report(Throwable t) {
        System.err.println("jwarp: " + t.getMessage());
        t.printStackTrace(System.err);
    }

    /** A listener refused a client because its backlog of pending setups was full. */
    void setupRefused() {
        setupsRefused.incrementAndGet();
    }

    /** The sum over {@link #engineCounters()}: the QPs open now and every doorbell. */
    @Override
    public Counters counters() {
        return Counters.sum(CounterScopes.DEVICE, engineCounters());
    }

    /**
     * Per engine thread: its doorbell figures (doorbells, wake-ups, parks) and the sums of the
     * standard counters of the QPs it carries (FPDUs and bytes in and out, Terminates, CRC errors).
     */
    @Override
    public List<Counters> engineCounters() {
        List<Counters> out = new ArrayList<>();
        for (int i = 0; i < workers.length; i++) {
            EngineWorker w = workers[i];
            String scope = CounterScopes.engine(i);
            List<Counters> parts = new ArrayList<>();
            parts.add(new CounterSet(scope, JwarpQp.COUNTER_NAMES)); // the names of the sum
            parts.add(w.doorbell().counters(scope));
            synchronized (qps) {
                for (JwarpQp qp : qps) {
                    if (qp.worker() == w) {
                        parts.add(qp.counters());
                    }
                }
            }
            out.add(Counters.sum(scope, parts));
        }
        return out;
    }

    /**
     * Invoker mode: the waiting thread is the engine; between duty cycles that found no work it
     * idles under the device's idle strategy, parked on the engine's doorbell (in its selector), so
     * that a post, a connection handed over by the acceptor or arriving data ends the park.
     */
    @Override
    public boolean invokeUntil(BooleanSupplier done, long timeout, TimeUnit unit) throws InterruptedException {
        if (invoker == null) {
            return RdmaDevice.super.invokeUntil(done, timeout, unit);
        }
        if (standby != null) {
            return awaitStandby(done, unit.toNanos(Math.max(0, timeout)));
        }
        IdleStrategy idle = IdleStrategies.create(config, invokerParker());
        long deadline = System.nanoTime() + unit.toNanos(Math.max(0, timeout));
        while (true) {
            if (done.getAsBoolean()) {
                return true;
            }
            if (deadline - System.nanoTime() <= 0) {
                return false;
            }
            int work = invoke();
            if (done.getAsBoolean()) {
                return true;
            }
            idle.idle(work);
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting on the device");
            }
        }
    }

    /**
     * HYBRID mode: the waiting thread leaves the engine to the standby thread and checks
     * {@code done} between short parks (a setup-path wait: CM events).
     */
    private boolean awaitStandby(BooleanSupplier done, long timeoutNanos) throws InterruptedException {
        standby.handOver();
        long deadline = System.nanoTime() + timeoutNanos;
        while (!done.getAsBoolean()) {
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                return false;
            }
            LockSupport.parkNanos(Math.min(left, HYBRID_WAIT_CHECK_NANOS));
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting on the device");
            }
        }
        return true;
    }

    /** HYBRID mode: how often a thread waiting in {@link #invokeUntil} checks its condition. */
    private static final long HYBRID_WAIT_CHECK_NANOS = 50_000;

    /**
     * INVOKER and HYBRID modes: one duty cycle on the calling thread (skipped if another thread is
     * in one).
     */
    @Override
    public int invoke() {
        if (invoker == null || !invoking.compareAndSet(false, true)) {
            return 0;
        }
        invocations.lazySet(invocations.get() + 1);
        invokingThread = Thread.currentThread();
        try {
            return invoker.invoke();
        } finally {
            invoking.set(false);
        }
    }

    /**
     * Waits until every engine thread has started a new duty cycle, so that whatever a cycle was
     * doing with memory before this call (placing a segment into a region, reading one for a Read
     * Response) has finished: the grace period of a deregistration. Called from an engine's own
     * cycle (a CM event handler) it returns at once: that cycle touches no region meanwhile.
     */
    void awaitEngineCycles() {
        if (closed || onEngineCycle()) {
            return;
        }
        for (EngineWorker w : workers) {
            runOnEngine(w, () -> { });
        }
    }

    /**
     * Runs {@code command} on {@code worker}'s engine thread (a setup-path command: a QP's
     * {@code modify}, a grace period) and returns once it ran, rethrowing what it threw. Called from
     * an engine's own cycle it runs at once (in invoker and hybrid modes every cycle serves every
     * worker) or, on another worker's thread, is queued without waiting: an engine thread never
     * blocks on another.
     *
     * @throws IllegalStateException if the device is closed, or the engine did not run it within 10 s
     */
    void runOnEngine(EngineWorker worker, Runnable command) {
        checkOpen();
        if (invokingThread == Thread.currentThread() || runs(worker, Thread.currentThread())) {
            command.run();
            return;
        }
        CompletableFuture<Void> done = new CompletableFuture<>();
        worker.execute(() -> {
            try {
                command.run();
                done.complete(null);
            } catch (RuntimeException | Error e) {
                done.completeExceptionally(e);
            }
        });
        if (onEngineCycle()) {
            return;
        }
        try {
            if (!invokeUntil(done::isDone, 10, TimeUnit.SECONDS)) {
                throw new IllegalStateException("the engine did not carry out a command within 10 s"
                        + (failure().map(f -> " (it failed: " + f + ")").orElse("")));
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the engine", e);
        }
        try {
            done.join();
        } catch (java.util.concurrent.CompletionException e) {
            if (e.getCause() instanceof RuntimeException r) {
                throw r;
            }
            throw e;
        }
    }

    /** True if {@code t} is the dedicated engine thread that runs {@code worker}. */
    private boolean runs(EngineWorker worker, Thread t) {
        for (int i = 0; i < runners.length; i++) {
            if (runners[i].thread() == t) {
                return workers[i] == worker;
            }
        }
        return false;
    }

    private boolean onEngineCycle() {
        Thread me = Thread.currentThread();
        if (invokingThread == me) {
            return true;
        }
        for (AgentRunner r : runners) {
            if (r.thread() == me) {
                return true;
            }
        }
        return false;
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
        RuntimeException failure = null;
        if (standby != null) {
            try {
                standby.close();
            } catch (RuntimeException e) {
                failure = e;
            }
        }
        for (AgentRunner r : runners) {
            try {
                r.close();
            } catch (RuntimeException e) {
                failure = e;
            }
        }
        for (EngineWorker w : workers) {
            w.shutdown();
        }
        if (invoker != null) {
            invoker.close();
        }
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
