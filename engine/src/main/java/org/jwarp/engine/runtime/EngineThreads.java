package org.jwarp.engine.runtime;

import java.lang.management.ManagementFactory;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import java.util.function.IntSupplier;
import org.jwarp.engine.affinity.NumaPlacement;
import org.jwarp.engine.agent.AgentInvoker;
import org.jwarp.engine.agent.AgentRunner;
import org.jwarp.engine.idle.DeadlineParker;
import org.jwarp.engine.idle.IdleStrategies;
import org.jwarp.engine.idle.IdleStrategy;
import org.jwarp.engine.idle.Parker;
import org.jwarp.engine.provider.JwarpConfig;
import org.jwarp.engine.provider.JwarpDevice;
import org.jwarp.engine.rss.RssSteering;

/**
 * Who runs a device's engine duty cycles, by threading mode: dedicated engine threads (one
 * {@link AgentRunner} per {@link EngineWorker}); or one worker whose cycle application threads run
 * when they poll or post ({@code invoker}), with a {@link StandbyEngine} that runs it when none does
 * ({@code hybrid}). Also how a setup-path command reaches an engine and is waited for.
 */
public final class EngineThreads {

    private final JwarpDevice device;
    private final EngineWorker[] workers;
    private final AgentRunner[] runners;
    private final AgentInvoker invoker;
    /** HYBRID mode: the thread that runs the engine while no application thread does; else null. */
    private final StandbyEngine standby;
    /** HYBRID mode: the application thread that holds the engine while it waits; else null. */
    private final EngineWaiter waiter;
    /** Held by whoever runs the invoked duty cycle (an application thread or the standby). */
    private final AtomicBoolean invoking = new AtomicBoolean();
    /** The thread in the invoked duty cycle (written and cleared under {@link #invoking}; read by itself). */
    private Thread invokingThread;
    /** The application thread that last ran a duty cycle; written under {@link #invoking}, read without (a waiter's spin). */
    private Thread lastCaller;
    /** Duty cycles application threads ran ({@link #invoke()}); written under {@link #invoking}. */
    private final AtomicLong invocations = new AtomicLong();
    private final AtomicInteger nextWorker = new AtomicInteger();
    private final RssSteering steering;

    public EngineThreads(JwarpDevice device, JwarpConfig config) {
        this.device = device;
        boolean invokerMode = config.threadingMode() != JwarpConfig.ThreadingMode.DEDICATED;
        int n = invokerMode ? 1 : config.engineThreads();
        workers = new EngineWorker[n];
        for (int i = 0; i < n; i++) {
            workers[i] = new EngineWorker(device, i);
        }
        if (invokerMode) {
            runners = new AgentRunner[0];
            invoker = new AgentInvoker(workers[0]).start();
            standby = config.threadingMode() == JwarpConfig.ThreadingMode.HYBRID
                    ? new StandbyEngine(device, this, workers[0], config.cpuList().isEmpty() ? -1 : config.cpuList().getFirst())
                    : null;
            waiter = standby == null ? null : new EngineWaiter(device, this, workers[0], standby);
        } else {
            invoker = null;
            standby = null;
            waiter = null;
            runners = new AgentRunner[n];
            List<Integer> cpus = config.cpuList();
            if (config.numa() && cpus.isEmpty()) {
                NumaPlacement.Plan plan = NumaPlacement.planHere(n);
                cpus = plan.cpus();
                for (int i = 0; i < n; i++) {
                    workers[i].node(plan.nodes().get(i));
                }
            }
            for (int i = 0; i < n; i++) {
                EngineWorker w = workers[i];
                // the doorbell ends a park when work is posted; the deadline keeps moderation timers on time
                AgentRunner.Builder b = AgentRunner.builder(w)
                        .idleStrategy(IdleStrategies.forEngine(config, new DeadlineParker(w.doorbell(), w::nanosToNextDeadline)))
                        .waker(w.doorbell()::ring)              // close ends a sleep in the I/O driver
                        // an engine thread that dies says so at once, with its cause, and ends its
                        // connections (the handler runs on that thread, the connections' owner)
                        .errorHandler(f -> device.engineDied(w, f))
                        .daemon(true);
                if (!cpus.isEmpty()) {
                    b.cpu(cpus.get(i % cpus.size()));
                }
                runners[i] = b.build().start();
            }
        }
        steering = new RssSteering(workers, config.rss());
    }

    /** The engine thread for a connection with {@code peer} arriving at {@code local} (RSS). */
    public RssSteering.Choice steer(InetSocketAddress peer, InetSocketAddress local) {
        return steering.choose(peer, local);
    }

    public RssSteering steering() {
        return steering;
    }

    /** CPU time engine thread {@code i} has used, in ns; -1 without a thread of its own or where the JVM cannot tell. */
    public long cpuNanos(int i) {
        if (i >= runners.length) {
            return -1;
        }
        return ManagementFactory.getThreadMXBean().getThreadCpuTime(runners[i].thread().threadId());
    }

    /** Starts the standby thread, once the device is ready for it. */
    public void start() {
        if (standby != null) {
            standby.start();
        }
    }

    public EngineWorker[] workers() {
        return workers;
    }

    /** INVOKER or HYBRID mode: an application thread that polls or posts runs the duty cycle. */
    public boolean invokerMode() {
        return invoker != null;
    }

    /** HYBRID mode's standby engine thread, or null. */
    public StandbyEngine standby() {
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
        try {
            return cycleWithTheFlag();
        } finally {
            waiter.cycleBeside();
        }
    }

    /**
     * HYBRID mode, the thread holding the engine for a wait ({@link EngineWaiter}): one duty cycle,
     * or -1 if another thread is in one.
     */
    int holderCycle() {
        return takeTheFlag() ? cycleWithTheFlag() : -1;
    }

    /** One duty cycle of a thread that took the flag for it (the standby, or the holder of a wait); drops the flag. */
    private int cycleWithTheFlag() {
        invokingThread = Thread.currentThread();
        try {
            int work = invoker.invoke();
            if (work == 0) {
                workers[0].noteTimers();   // the thread may sleep long after an idle cycle
            }
            return work;
        } finally {
            invokingThread = null;
            invoking.setRelease(false);
        }
    }

    /** {@link #lastCaller}: a stale read only picks the other way of idling for a step. */
    Thread lastCaller() {
        return lastCaller;
    }

    /** HYBRID mode: whether an application thread holds the engine for a wait (the standby stays out). */
    boolean waiterHolds() {
        return waiter.held();
    }

    /**
     * One invoked duty cycle by the thread that took {@link #invoking}, which it gives back;
     * {@code part} of a cycle before it, if not null.
     */
    private int cycleHoldingTheFlag(IntSupplier part) {
        invokingThread = Thread.currentThread();
        try {
            int work = part == null ? 0 : invoker.invoke(part);
            return work + invoker.invoke();
        } finally {
            invokingThread = null;
            // a lock's release: what the cycle wrote is visible before the flag reads free
            invoking.setRelease(false);
            if (waiter != null) {
                waiter.cycleBeside();
            }
        }
    }

    /** Ends a park of whoever sleeps on the invoked engine's doorbell. */
    void wakeEngine() {
        workers[0].doorbell().wakeWaiter();
    }

    public AgentInvoker invoker() {
        return invoker;
    }

    /**
     * Invoker mode: how a thread waiting in a blocking verb parks between duty cycles, as the
     * engine thread would: on the engine's doorbell, which sleeps in the I/O driver of the engine's
     * sockets (so arriving data and posts end the park), bounded by the moderation timers.
     */
    public DeadlineParker invokerParker() {
        EngineWorker w = workers[0];
        return new DeadlineParker(w.doorbell(), w::nanosToNextDeadline);
    }

    /**
     * Connections the engine threads carry, each counted on its own thread (setup path; tests use
     * it to see that ended connections are released).
     */
    public int connectionCount() throws InterruptedException {
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
    public EngineWorker pickWorker() {
        return workers[Math.floorMod(nextWorker.getAndIncrement(), workers.length)];
    }

    public EngineWorker listenerWorker() {
        return workers[0];
    }

    /**
     * Invoker mode: the waiting thread is the engine; between duty cycles that found no work it
     * idles under the device's idle strategy, parked on the engine's doorbell (in its I/O driver), so
     * that a post, a new connection or arriving data ends the park. Hybrid mode: the waiting thread
     * holds the engine as in invoker mode ({@link EngineWaiter}), the standby standing aside; a
     * wait of no time runs it a moment ({@link EngineWaiter#runHereAMoment}) and hands it to the standby.
     * Dedicated mode: it waits.
     */
    public boolean invokeUntil(BooleanSupplier done, long timeout, TimeUnit unit) throws InterruptedException {
        return invokeUntil(done, unit.toNanos(Math.max(0, timeout)), Parker.PLAIN);
    }

    /**
     * As above; in HYBRID mode a thread waiting beside another's hold parks with {@code beside}
     * between its looks at {@code done} (a completion channel's doorbell, which its event rings).
     */
    public boolean invokeUntil(BooleanSupplier done, long nanos, Parker beside) throws InterruptedException {
        if (standby != null) {
            return nanos > 0 && !invoker.isClosed() ? waiter.await(done, nanos, beside)
                    : waiter.runHereAMoment(done) || awaitEngineThread(done, 0);
        }
        if (invoker == null) {
            return awaitEngineThread(done, nanos);
        }
        IdleStrategy idle = IdleStrategies.create(device.jwarpConfig(), invokerParker());
        long deadline = device.clock().nanoTime() + nanos;
        while (true) {
            if (done.getAsBoolean()) {
                return true;
            }
            if (deadline - device.clock().nanoTime() <= 0) {
                return false;
            }
            int work = invoke();
            if (done.getAsBoolean()) {
                return true;
            }
            if (invoker.isClosed()) {
                // the device closed under the wait: no cycle runs any more, and its sleep is gone
                return awaitEngineThread(done, Math.max(0, deadline - device.clock().nanoTime()));
            }
            idle.idle(work);
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while waiting on the device");
            }
        }
    }

    /**
     * DEDICATED and HYBRID modes: an engine thread runs the cycles (in HYBRID mode the waiting
     * thread hands the engine to the standby thread), and the waiting thread checks {@code done}
     * between short parks of its own (a setup-path wait: a command, CM events). It never sleeps in
     * an engine thread's I/O driver, where NIO's selector holds a lock while that thread sleeps.
     */
    boolean awaitEngineThread(BooleanSupplier done, long timeoutNanos) throws InterruptedException {
        if (standby != null) {
            standby.handOver();
        }
        long deadline = device.clock().nanoTime() + timeoutNanos;
        while (!done.getAsBoolean()) {
            long left = deadline - device.clock().nanoTime();
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

    /** DEDICATED and HYBRID modes: how often a thread waiting in {@link #invokeUntil} checks its condition. */
    private static final long HYBRID_WAIT_CHECK_NANOS = 50_000;

    /**
     * INVOKER and HYBRID modes: one duty cycle on the calling thread (skipped if another thread is
     * in one).
     */
    public int invoke() {
        return takeTheFlag() ? cycleHoldingTheFlag(null) : 0;
    }

    /**
     * INVOKER and HYBRID modes: {@code part} of the duty cycle (see {@link EngineWorker#transmitNow}),
     * then the whole one, on the calling thread; false if none ran (another thread is in one, or
     * the device has no invoked engine).
     */
    public boolean tryInvoke(IntSupplier part) {
        if (!takeTheFlag()) {
            return false;
        }
        cycleHoldingTheFlag(part);
        return true;
    }

    /** An application thread takes {@link #invoking} for a cycle, if it is free. */
    private boolean takeTheFlag() {
        if (invoker == null || !invoking.compareAndSet(false, true)) {
            return false;
        }
        invocations.lazySet(invocations.get() + 1);
        Thread me = Thread.currentThread();
        if (lastCaller != me) {
            lastCaller = me;
        }
        if (standby != null && !workers[0].driver().pollsBesideSleep()) {
            standby.wakeFromSleep();   // its sleep holds the driver this cycle's readiness check takes
            waiter.wakeFromSleep();    // and so does a waiting application thread's
        }
        return true;
    }

    /** Whether a thread holds {@link #invoking} (the standby's side of its handshake). */
    boolean invokedNow() {
        return invoking.get();
    }

    /**
     * Waits until every engine thread has started a new duty cycle, so that whatever a cycle was
     * doing with memory before this call (placing a segment into a region, reading one for a Read
     * Response) has finished: the grace period of a deregistration. Called from an engine's own
     * cycle (a CM event handler) it returns at once: that cycle touches no region meanwhile.
     */
    public void awaitEngineCycles() {
        if (onEngineCycle()) {
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
    public void runOnEngine(EngineWorker worker, Runnable command) {
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
                        + (device.failure().map(f -> " (it failed: " + f + ")").orElse("")));
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
        int i = runnerOf(t);
        return i >= 0 && workers[i] == worker;
    }

    /** Whether the calling thread runs an engine cycle of this device now (an engine thread, or the invoking one). */
    public boolean onEngineCycle() {
        Thread me = Thread.currentThread();
        return invokingThread == me || runnerOf(me) >= 0;
    }

    /** The index of the dedicated engine thread {@code t} (its worker's), or -1. */
    private int runnerOf(Thread t) {
        for (int i = 0; i < runners.length; i++) {
            if (runners[i].thread() == t) {
                return i;
            }
        }
        return -1;
    }

    /**
     * Device close: stops the engine threads; once stopped, their connections belong to the calling
     * thread, which shuts every worker down. Returns what a thread's stop threw, or null.
     */
    public RuntimeException stop() {
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
        // an application thread may be in an invoked cycle: the workers are shut down once it left,
        // and no cycle starts after (a closed invoker runs none)
        boolean took = invoker != null && invokingThread != Thread.currentThread();
        if (took) {
            while (!invoking.compareAndSet(false, true)) {
                Thread.onSpinWait();                        // a cycle never blocks: it ends soon
            }
        }
        if (waiter != null) {
            waiter.wakeFromSleep();                         // a thread waiting in the engine's driver leaves it
        }
        try {
            for (EngineWorker w : workers) {
                w.shutdown();
            }
            if (invoker != null) {
                invoker.close();
            }
        } finally {
            if (took) {
                invoking.setRelease(false);
            }
        }
        return failure;
    }
}
