package org.jwarp.engine.agent;

import java.time.Duration;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

import org.jwarp.engine.affinity.ThreadAffinity;
import org.jwarp.engine.counters.EngineCounters;
import org.jwarp.engine.idle.IdleStrategy;

/**
 * Runs an {@link Agent} on a dedicated platform thread (JwarpConfig's DEDICATED mode: seed 001's
 * offload-engine processor): optionally pins the thread to a CPU, calls {@code onStart}, then
 * loops {@code doWork()} / {@code idle(work)} until {@link #close()}, then calls {@code onClose}.
 *
 * <p><b>Failures are never swallowed.</b> If {@code onStart}, {@code doWork} or {@code onClose}
 * throws (or the CPU pinning is refused by the kernel), the runner wraps it in an
 * {@link AgentFailedException} naming the agent, the phase and the duty cycle, records it
 * ({@link #failure()}), reports it to the {@link ErrorHandler} once, stops the loop, still calls
 * {@code onClose}, and {@link #close()} rethrows it.
 *
 * <p>{@link #close()} stops the loop, unparks the thread (an idle park ends at once) and joins it;
 * if the agent does not return within the close timeout (a {@code doWork} that blocks, against
 * docs/design.md rule 2), it interrupts the thread, waits once more and then gives up with an
 * {@link IllegalStateException} rather than hang.
 *
 * <p>The loop allocates nothing: one volatile read of the running flag, the agent's work, an
 * optional owner-thread counter increment and the idle step per cycle.
 */
public final class AgentRunner implements AutoCloseable {

    private final Agent agent;
    private final IdleStrategy idleStrategy;
    private final ErrorHandler errorHandler;
    private final int cpu;
    private final EngineCounters counters;
    /** Least time {@link #close()} waits for the thread after interrupting it. */
    static final long AFTER_INTERRUPT_NANOS = TimeUnit.SECONDS.toNanos(10);

    private final long closeTimeoutNanos;
    private final boolean daemon;
    private final Runnable waker;

    private volatile boolean running;
    private volatile AgentFailedException failure;
    private volatile int pinnedCpu = -1;
    private volatile Thread thread;
    private boolean started;
    private boolean closed;
    private boolean failureThrown;

    private AgentRunner(Builder b) {
        this.agent = b.agent;
        this.idleStrategy = b.idleStrategy;
        this.errorHandler = b.errorHandler;
        this.cpu = b.cpu;
        this.counters = b.counters;
        this.closeTimeoutNanos = b.closeTimeout.toNanos();
        this.daemon = b.daemon;
        this.waker = b.waker;
    }

    /** A builder for a runner of {@code agent}. */
    public static Builder builder(Agent agent) {
        return new Builder(agent);
    }

    /**
     * Starts the agent's thread, named after {@link Agent#roleName()}. Returns {@code this}.
     *
     * @throws IllegalStateException if already started or closed
     */
    public synchronized AgentRunner start() {
        if (started || closed) {
            throw new IllegalStateException("agent runner '" + agent.roleName() + "' was already "
                    + (closed ? "closed" : "started"));
        }
        started = true;
        running = true;
        Thread t = new Thread(this::run, agent.roleName());
        t.setDaemon(daemon);
        thread = t;
        t.start();
        return this;
    }

    private void run() {
        boolean startedOk = false;
        try {
            if (cpu >= 0) {
                pinnedCpu = ThreadAffinity.pinCurrentThread(cpu) ? cpu : -1;
            }
        } catch (Throwable t) {
            fail("pinning its thread to CPU " + cpu, t);
        }
        if (failure == null) {
            try {
                agent.onStart();
                startedOk = true;
            } catch (Throwable t) {
                fail("in onStart", t);
            }
        }
        if (startedOk) {
            dutyCycles();
        }
        try {
            agent.onClose();
        } catch (Throwable t) {
            AgentFailedException earlier = failure;
            if (earlier != null) {
                earlier.addSuppressed(t);
            } else {
                fail("in onClose", t);
            }
        }
        running = false;
    }

    private void dutyCycles() {
        final Agent agent = this.agent;
        final IdleStrategy idle = this.idleStrategy;
        final EngineCounters counters = this.counters;
        long cycles = 0;
        try {
            while (running) {
                int work = agent.doWork();
                cycles++;
                if (counters != null) {
                    counters.onDutyCycle();
                }
                if (work > 0 && agent.setupOnly()) {
                    idle.setupWorked();
                } else {
                    idle.idle(work);
                }
            }
        } catch (Throwable t) {
            fail("in doWork at duty cycle " + (cycles + 1), t);
        }
    }

    private void fail(String where, Throwable cause) {
        AgentFailedException f = new AgentFailedException(agent.roleName(), where, cause);
        running = false;
        failure = f;
        try {
            errorHandler.onError(f);
        } catch (Throwable handlerFailure) {
            f.addSuppressed(handlerFailure);
        }
    }

    /**
     * Stops the agent and joins its thread; rethrows the agent's failure, once. Idempotent. Called
     * from the agent's own thread it only asks the loop to stop.
     *
     * @throws AgentFailedException  if the agent failed (the first close after the failure)
     * @throws IllegalStateException if the thread did not stop within the close timeout and then,
     *                               interrupted, within the longer of it and 10 s, or
     *                               the caller was interrupted while joining (its flag is restored)
     */
    @Override
    public void close() {
        if (thread == Thread.currentThread()) {
            running = false;                                 // from doWork: no lock, no join of itself
            return;
        }
        synchronized (this) {
            closeAndJoin();
        }
    }

    private void closeAndJoin() {
        closed = true;
        Thread t = thread;
        if (t == null) {
            return;
        }
        running = false;
        LockSupport.unpark(t);
        waker.run();
        try {
            if (!join(t)) {
                t.interrupt();                                   // a blocking doWork: last resort
                // an interrupted thread only needs to be scheduled to stop, which on a loaded machine
                // can take longer than a short close timeout: wait generously before giving up on it
                long after = Math.max(closeTimeoutNanos, AFTER_INTERRUPT_NANOS);
                if (!t.join(Duration.ofNanos(after))) {
                    throw new IllegalStateException("agent '" + agent.roleName() + "' did not stop within "
                            + TimeUnit.NANOSECONDS.toMillis(after) + " ms of being interrupted; its doWork() blocks");
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while closing agent '" + agent.roleName() + "'", e);
        }
        AgentFailedException f = failure;
        if (f != null && !failureThrown) {
            failureThrown = true;
            throw f;
        }
    }

    private boolean join(Thread t) throws InterruptedException {
        return t.join(Duration.ofNanos(closeTimeoutNanos));
    }

    /** The recorded failure, or {@code null}. */
    public AgentFailedException failure() {
        return failure;
    }

    /** True from {@link #start()} until the loop ends (by close or failure). */
    public boolean isRunning() {
        return running;
    }

    /** The agent's thread, or {@code null} before {@link #start()}. */
    public Thread thread() {
        return thread;
    }

    /** The CPU the thread was pinned to, or -1 (not asked, not yet, or affinity unsupported here). */
    public int pinnedCpu() {
        return pinnedCpu;
    }

    /** The agent. */
    public Agent agent() {
        return agent;
    }

    @Override
    public String toString() {
        return "AgentRunner{" + agent.roleName() + ", " + idleStrategy.alias() + (running ? ", running" : "")
                + (failure != null ? ", failed" : "") + '}';
    }

    /** Builder; not thread-safe. */
    public static final class Builder {
        private final Agent agent;
        private IdleStrategy idleStrategy;
        private ErrorHandler errorHandler = ErrorHandler.RECORD_ONLY;
        private int cpu = -1;
        private EngineCounters counters;
        private Duration closeTimeout = Duration.ofSeconds(5);
        private boolean daemon = true;
        private Runnable waker = () -> { };

        private Builder(Agent agent) {
            if (agent == null) {
                throw new IllegalArgumentException("agent must not be null");
            }
            this.agent = agent;
        }

        /** Required: what the thread does between cycles that found no work. */
        public Builder idleStrategy(IdleStrategy idleStrategy) {
            this.idleStrategy = idleStrategy;
            return this;
        }

        /** Where the failure is reported (default {@link ErrorHandler#RECORD_ONLY}: close() rethrows it). */
        public Builder errorHandler(ErrorHandler errorHandler) {
            this.errorHandler = errorHandler;
            return this;
        }

        /**
         * Pin the thread to {@code cpu} before {@code onStart} (JwarpConfig's cpuList); -1 for no
         * pinning (the default). Where affinity is unsupported the thread runs unpinned
         * ({@link #pinnedCpu()} stays -1); where the kernel refuses the CPU the agent fails.
         */
        public Builder cpu(int cpu) {
            if (cpu < -1) {
                throw new IllegalArgumentException("cpu must be >= 0, or -1 for none: " + cpu);
            }
            this.cpu = cpu;
            return this;
        }

        /** Count duty cycles in these engine counters (the runner's thread is their owner). */
        public Builder counters(EngineCounters counters) {
            this.counters = counters;
            return this;
        }

        /** How long {@link AgentRunner#close()} waits for the thread before interrupting it (default 5 s). */
        public Builder closeTimeout(Duration closeTimeout) {
            if (closeTimeout == null || closeTimeout.isNegative() || closeTimeout.isZero()) {
                throw new IllegalArgumentException("close timeout must be > 0: " + closeTimeout);
            }
            this.closeTimeout = closeTimeout;
            return this;
        }

        /**
         * Whether the thread is a daemon (default true: a device that is never closed must not keep
         * the JVM alive; closing it is still the only clean stop).
         */
        public Builder daemon(boolean daemon) {
            this.daemon = daemon;
            return this;
        }

        /**
         * How {@link AgentRunner#close()} ends an idle park that an unpark does not (one that
         * sleeps in an I/O driver): run after the loop was told to stop. Default: nothing.
         */
        public Builder waker(Runnable waker) {
            if (waker == null) {
                throw new IllegalArgumentException("waker must not be null");
            }
            this.waker = waker;
            return this;
        }

        /** Builds the runner (not started). */
        public AgentRunner build() {
            if (idleStrategy == null) {
                throw new IllegalArgumentException("an idle strategy is required");
            }
            if (errorHandler == null) {
                throw new IllegalArgumentException("errorHandler must not be null");
            }
            return new AgentRunner(this);
        }
    }
}
