package org.jwarp.engine.runtime;

import java.util.ArrayList;
import java.util.List;
import org.jwarp.engine.agent.Agent;
import org.jwarp.engine.agent.EngineTenant;
import org.jwarp.engine.cm.JwarpListener;
import org.jwarp.engine.datapath.Connection;
import org.jwarp.engine.io.IoDriver;
import org.jwarp.engine.io.StagingPool;
import org.jwarp.engine.notify.Doorbell;
import org.jwarp.engine.provider.JwarpChannel;
import org.jwarp.engine.provider.JwarpConfig;
import org.jwarp.engine.provider.JwarpDevice;
import org.jwarp.engine.provider.JwarpQp;
import org.jwarp.verbs.CounterSet;
import org.jwarp.verbs.Counters;
import org.jwarp.verbs.SendWr;

/**
 * One engine thread's duty cycle — the emulated offload engine of seed 001. It owns its
 * connections (and their QPs' streams), the listeners given to it, and the moderation timers of
 * the completion channels; other threads reach it only through its command queue and doorbell
 * (DESIGN rule 1). {@link #doWork()} never blocks: sockets are non-blocking, and idling is the
 * idle strategy's job.
 */
public final class EngineWorker implements Agent {

    private final JwarpDevice device;
    private final int index;
    /** This thread's socket I/O: readiness, batching, bytes and its sleep, in the device's layer. */
    private final IoDriver io;
    private final Doorbell doorbell;

    private final StagingPool staging = new StagingPool();
    /** Which connections a duty cycle visits and reads: the whole policy ({@link EngineScheduler}). */
    private final EngineScheduler<Connection> scheduler;
    /** Setup-path commands from other threads: bounded, drained at most 64 a cycle. */
    private final EngineCommands commands;
    /** Every connection this thread owns. */
    private final IndexedList<Connection> connections = new IndexedList<>(Connection::listSlot, Connection::listSlot);
    /** QPs posted to while their connection was parked. */
    private final ParkedPosts parkedPosts = new ParkedPosts();
    /** The listeners this thread accepts for. */
    private final EngineListeners listeners;
    private final List<JwarpChannel> channels = new ArrayList<>();
    /** Other personalities run in this duty cycle (the offloaded sockets). */
    private final List<EngineTenant> tenants = new ArrayList<>();
    /** Set by the closing thread once the engine has stopped: commands queue up for {@link #shutdown}. */
    private volatile boolean shuttingDown;

    EngineWorker(JwarpDevice device, int index) {
        this.device = device;
        this.index = index;
        JwarpConfig config = device.jwarpConfig();
        this.io = device.sockets().newDriver();
        this.doorbell = new Doorbell(io);
        this.commands = new EngineCommands(device, doorbell, roleName());
        this.listeners = new EngineListeners(io, !device.sockets().direct());
        this.scheduler = new EngineScheduler<>(config.readinessFrom(), new DriverReadiness(io));
        this.sleepsLong = config.threadingMode() == JwarpConfig.ThreadingMode.DEDICATED
                && config.idleStrategy() == JwarpConfig.IdleStrategyKind.ADAPTIVE;
    }

    public Doorbell doorbell() {
        return doorbell;
    }

    /** The NUMA node this thread was placed on, or -1 (no placement). */
    private volatile int node = -1;

    int node() {
        return node;
    }

    /** NUMA placement (device setup): this thread runs on {@code n}. */
    void node(int n) {
        node = n;
        staging.node(n);
    }

    /** This thread's I/O driver (engine thread, or the thread running its cycle; wake-ups from any). */
    public IoDriver driver() {
        return io;
    }

    /** This thread's staging memory (engine thread). */
    public StagingPool staging() {
        return staging;
    }

    /** This engine thread's number within its device (engine-N). */
    public int index() {
        return index;
    }

    /**
     * Runs {@code command} on this engine thread (setup path; see {@link EngineCommands} for a full
     * queue). In invoker mode the calling thread runs the cycle itself.
     */
    public void execute(Runnable command) {
        commands.offer(command);
        if (device.invokerMode() && !shuttingDown) {
            device.invoke();
            // that cycle may have run here rather than on a thread waiting on the device, which may
            // be parked in a select that began before a socket this cycle registered, or not have
            // seen the event this cycle delivered: it looks again
            doorbell.ring();
        }
    }

    /** Claims room for one command, for {@link #executeReserved}; false if the queue is full. */
    public boolean reserveCommand() {
        return commands.reserve();
    }

    /** Runs {@code command} on this engine thread in the room {@link #reserveCommand} claimed. */
    public void executeReserved(Runnable command) {
        commands.putReserved(command);
    }

    @Override
    public int doWork() {
        doorbell.consume();
        int work = commands.run();
        long now = device.clock().nanoTime();
        if (!listeners.isEmpty()) {
            work += listeners.acceptWork(now, selective);
        }
        int setupWork = work;
        long s = io.sleeps();
        boolean woke = s != sleepsSeen;                     // data or room in a socket may be what ended the sleep
        sleepsSeen = s;
        if (woke) {
            staging.trim();                                 // an idle thread keeps no buffers for bursts
        }
        // a layer that batches writes puts those of every connection in one system call (the
        // others write at once); a lone connection has nothing to batch with, and writes at once
        boolean batch = connections.size() > 1;
        parkedPosts.takeAll(this);
        parkedTimers.wakeDue(now, this);
        List<Connection> active = scheduler.active();
        for (int i = 0; i < active.size(); i++) {
            Connection c = active.get(i);
            try {
                int sent = c.transmitWork(woke, batch);     // sends first: none waits behind a read
                scheduler.transmitted(c, sent, c.bytesPending(), now);
                work += sent;
            } catch (RuntimeException | OutOfMemoryError e) {
                c.failed(e);
            }
        }
        flushIo();
        selective = scheduler.chooseReads(now, woke, connections.view());
        int kept = 0;
        for (int i = 0; i < active.size(); i++) {          // by index: an end in an event handler may unpark one
            Connection c = active.get(i);
            boolean setup = c.inSetup();
            int done;
            try {
                done = c.doWork(now);
            } catch (RuntimeException | OutOfMemoryError e) {
                c.failed(e);                                // one connection's failure ends that connection only
                done = 1;
            }
            work += done;
            if (setup) {
                setupWork += done;
            }
            if (c.finished()) {
                connections.remove(c);                      // a failed setup releases its socket and buffers
                work++;
            } else if (scheduler.stays(c, done, selective)) {
                active.set(kept++, c);
            }
        }
        scheduler.truncate(kept);
        for (int i = 0; i < channels.size(); i++) {
            work += channels.get(i).pollTimers();
        }
        for (int i = 0; i < tenants.size(); i++) {
            work += tenants.get(i).doWork(now);
        }
        idleCycles = work == 0 ? idleCycles + 1 : 0;
        setupOnly = work > 0 && work == setupWork;
        if (work == 0 && sleepsLong) {
            noteTimers();                                   // the thread may sleep after this cycle
        }
        if (idleCycles == TRIM_AFTER_IDLE_CYCLES) {
            staging.trim();                                 // going idle: keep no buffers for bursts
        }
        return work;
    }

    /**
     * Invoker and hybrid modes, on the thread that just posted to {@code qp}, before the duty cycle
     * it runs: the transmit half of the QP's running connection, so that the request leaves before
     * the rest of the cycle (the commands, the other connections' transmits, the readiness check), which
     * then finds it sent. Returns the work done (0 without a running connection here: the cycle
     * serves it, in setup or in ERROR).
     */
    public int transmitNow(JwarpQp qp) {
        return poster(qp, null);
    }

    /**
     * Invoker and hybrid modes, on the thread that posts {@code wr} to {@code qp} and holds the
     * engine: the small-message send of the QP's running connection
     * ({@link Connection#sendDirect}). Returns the work done; 0 if the request must take the send
     * queue (no running connection here, something queued before it, more than one FPDU).
     */
    public int sendNow(JwarpQp qp, SendWr wr) {
        return poster(qp, wr);
    }

    /** The poster's transmit ({@code wr} null) or direct send of {@code wr} on qp's running connection here. */
    private int poster(JwarpQp qp, SendWr wr) {
        Connection c = qp.connection();
        if (c == null || c.owner() != this || !c.isRunning()) {
            return 0;
        }
        try {
            int sent = wr == null ? c.transmitWork(false, false) : c.sendDirect(wr);
            if (sent > 0) {
                c.schedule().sentAhead();
                c.schedule().traffic(device.clock().nanoTime());
            }
            return sent;
        } catch (RuntimeException | OutOfMemoryError e) {
            c.failed(e);                                    // as in a whole cycle: that connection only
            return 1;
        }
    }

    /** Whether the last cycle's work was all setup steps: commands and MPA exchanges, no traffic. */
    private boolean setupOnly;

    @Override
    public boolean setupOnly() {
        return setupOnly;
    }

    /**
     * Duty cycles without work after which the staging pool lets go of the spares it kept for
     * bursts of batched calls (the adaptive idle strategy spins longer than that before it sleeps;
     * a busy thread has work in nearly every cycle).
     */
    static final int TRIM_AFTER_IDLE_CYCLES = 16;

    private int idleCycles;

    /** The writes the transmit half queued for a batch go out, in one system call (none on other layers). */
    private void flushIo() {
        try {
            io.flush();
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException("the engine's " + io.layer() + " I/O failed", e);
        }
    }

    /** A parked connection is visited again, from this duty cycle on (engine thread). */
    public void unpark(Connection c) {
        scheduler.unpark(c);
    }

    /** Connections parked now (any thread: counter readers). */
    public int parkedCount() {
        return scheduler.parkedCount();
    }

    /**
     * A poster (any thread) found {@code qp}'s connection parked: the QP goes on this thread's
     * list, which the next duty cycle takes before its transmits (the poster rings the doorbell
     * after). Lock-free; no allocation.
     */
    public void postedWhileParked(JwarpQp qp) {
        parkedPosts.push(qp);
    }

    /** Connections the duty cycle visits (engine thread; tests). */
    public int activeCount() {
        return scheduler.active().size();
    }

    private long sleepsSeen;
    /** Whether the last cycle's reads followed readiness checks (which see the listeners too). */
    private boolean selective;

    /**
     * Nanoseconds until the earliest timer of this thread (for the idle strategy): its channels'
     * moderation, its tenants' deadlines, and its connections' timers as the last idle cycle saw
     * them ({@link #noteTimers}): the earliest deadline, or {@code maxParkNanos} while one of
     * them cannot name its own.
     */
    long nanosToNextDeadline() {
        long t = timerDeadline;
        long now = device.clock().nanoTime();
        long min = t == EngineScheduler.POLL ? device.jwarpConfig().backoff().maxParkNanos()
                : t == EngineScheduler.NO_TIMER ? Long.MAX_VALUE : Math.max(0, t - now);
        for (int i = 0; i < channels.size(); i++) {
            min = Math.min(min, channels.get(i).nanosToNextDeadline());
        }
        for (int i = 0; i < tenants.size(); i++) {
            min = sooner(min, tenants.get(i).deadline(), now);
        }
        return sooner(min, listeners.deadline(), now);
    }

    /** {@code min}, or the nanoseconds until {@code deadline} if sooner ({@link Long#MAX_VALUE}: none). */
    private static long sooner(long min, long deadline, long now) {
        return deadline == Long.MAX_VALUE ? min : Math.min(min, Math.max(0, deadline - now));
    }

    /**
     * The earliest timer of this thread's connections when the last idle cycle looked
     * ({@link EngineScheduler#nextTimer}, with the parked connections' {@link #wakeAt}s):
     * {@link EngineScheduler#POLL} until one looked, and for a connection that cannot name its
     * deadline. Timers are polled by the duty cycle, so a sleeping engine wakes for them. Written
     * by whoever ran the last idle cycle, read by the thread about to sleep.
     */
    private volatile long timerDeadline = EngineScheduler.POLL;

    /** Timers of connections that may be parked meanwhile (a silent peer's nudge). */
    private final ParkedTimers parkedTimers = new ParkedTimers();

    /**
     * Engine thread: {@code c}, which may be parked meanwhile, is visited again from {@code at}
     * (the clock's nanoseconds) on, when its timer is due (setup path).
     */
    public void wakeAt(Connection c, long at) {
        parkedTimers.add(c, at);
    }

    /**
     * Whether this thread's idle strategy sleeps past {@code maxParkNanos}
     * ({@link org.jwarp.engine.idle.IdleStrategies#forEngine}: a dedicated engine thread, adaptive
     * idle); only then do the idle cycles look at the timers (hybrid's standby looks after
     * its own idle cycles, {@link EngineThreads#standbyCycle}). Other threads park for at most
     * {@code maxParkNanos} anyway, and their idle cycles are a polling application's.
     */
    private final boolean sleepsLong;

    /** After an idle cycle of a thread that may then sleep long (a dedicated engine, hybrid's standby). */
    void noteTimers() {
        long next = scheduler.nextTimer();
        if (next != EngineScheduler.POLL) {
            next = Math.min(next, parkedTimers.earliest());
        }
        if (next != timerDeadline) {
            timerDeadline = next;
        }
    }

    /**
     * The counters of the QPs this thread carried that have closed since: the engine's and the
     * device's totals only grow, as a NIC's port counters do, while each QP's go with it.
     */
    private final CounterSet retired = new CounterSet("retired", JwarpQp.COUNTER_NAMES);

    public Counters retired() {
        return retired;
    }

    /** A QP of this thread closed (any thread, under the device's QP list lock): its counts stay in the totals. */
    public void retire(Counters qp) {
        for (int i = 0; i < JwarpQp.COUNTER_NAMES.size(); i++) {
            retired.addAtomic(i, qp.get(i));
        }
    }

    /** A tenant joins this duty cycle (engine thread, through {@link #execute}). */
    public void addTenant(EngineTenant t) {
        if (shuttingDown) {
            t.shutdown();
            return;
        }
        tenants.add(t);
    }

    /** A tenant leaves this duty cycle and releases what it holds (engine thread, through {@link #execute}). */
    public void removeTenant(EngineTenant t) {
        if (tenants.remove(t)) {
            t.shutdown();
        }
    }

    /** A listener accepts in this duty cycle until it closes, or the device does (engine thread). */
    public void addListener(JwarpListener l) {
        listeners.add(l);
    }

    public void removeListener(JwarpListener l) {
        listeners.remove(l);
    }

    public void addConnection(Connection c) {
        connections.add(c);
        scheduler.add(c);
        c.register(io);
    }

    /** QPs moved to this thread by rebalancing (written by this thread, read by counter readers). */
    private volatile long movesIn;

    public long movesIn() {
        return movesIn;
    }

    /** A rebalancing move brought a QP here (this thread). */
    public void movedIn() {
        movesIn++;
    }

    /** The connection moves to another engine thread: it leaves this one's duty cycle and I/O driver. */
    public void detach(Connection c) {
        connections.remove(c);
        scheduler.remove(c);
        c.unregister();
    }

    /**
     * This engine thread failed: every connection it carries ends (its event, a flush of every
     * outstanding request). Runs on this thread, after its loop stopped.
     */
    public void failAll(Throwable cause) {
        for (Connection c : connections.view()) {
            try {
                c.endAfter(cause);
            } catch (RuntimeException | Error e) {
                cause.addSuppressed(e);
            }
        }
        for (EngineTenant t : tenants) {
            try {
                t.engineFailed(cause);
            } catch (RuntimeException | Error e) {
                cause.addSuppressed(e);
            }
        }
        tenants.clear();
    }

    /** Connections this thread carries (engine thread, or a command run on it). */
    int connectionCount() {
        return connections.size();
    }

    public void addChannel(JwarpChannel c) {
        channels.add(c);
    }

    public void removeChannel(JwarpChannel c) {
        channels.remove(c);
    }

    /** The QP is gone: drop its connection from the duty cycle. */
    public void forget(JwarpQp qp) {
        Connection carried = qp.connection();
        if (carried != null && carried.qp() == qp) {
            if (connections.remove(carried)) {
                scheduler.remove(carried);
            }
            return;
        }
        for (int i = connections.size() - 1; i >= 0; i--) {       // a QP that forgot its connection (RESET)
            Connection c = connections.get(i);
            if (c.qp() == qp) {
                scheduler.remove(c);
                connections.remove(c);
            }
        }
    }

    /**
     * Device close (the engine thread has stopped; the closing thread owns this worker now):
     * carries out what was asked before the close (a queued reject still sends its Reply), then
     * disconnects everything this thread owns.
     */
    void shutdown() {
        shuttingDown = true;
        commands.runAll();
        for (Connection c : connections.view()) {
            c.shutdown();
        }
        connections.clear();
        scheduler.clear();
        parkedTimers.clear();
        listeners.closeAll();
        for (EngineTenant t : tenants) {
            t.shutdown();
        }
        tenants.clear();
        io.close();
    }

    @Override
    public String roleName() {
        return "jwarp-engine-" + index;
    }
}
