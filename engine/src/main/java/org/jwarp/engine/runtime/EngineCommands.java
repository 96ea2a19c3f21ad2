package org.jwarp.engine.runtime;

import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.locks.LockSupport;
import org.jwarp.engine.notify.Doorbell;
import org.jwarp.engine.provider.JwarpDevice;

/**
 * How setup-path commands reach one engine thread (DESIGN rule 1): a bounded {@link CommandQueue}
 * and the thread's doorbell. A producer outside the engine's cycles waits for room (a flood of
 * accepts holds the acceptor back, and the kernel's backlog holds the rest); an engine cycle never
 * waits on a queue that only an engine drains, and is refused. The duty cycle runs at most
 * {@link #DRAIN_LIMIT} a cycle, so a flood of setups cannot starve the data path.
 */
final class EngineCommands {

    /** Commands one duty cycle runs at most; the rest wait for the next (which comes at once: the cycle did work). */
    static final int DRAIN_LIMIT = 64;
    /** How long a producer waits for room in a full queue before it gives up. */
    static final long ROOM_TIMEOUT_NANOS = 10_000_000_000L;
    private static final long ROOM_POLL_NANOS = 50_000;

    private final CommandQueue queue = new CommandQueue(CommandQueue.DEFAULT_CAPACITY);
    private final JwarpDevice device;
    private final Doorbell doorbell;
    private final String owner;

    EngineCommands(JwarpDevice device, Doorbell doorbell, String owner) {
        this.device = device;
        this.doorbell = doorbell;
        this.owner = owner;
    }

    /**
     * Any thread: queues {@code command} and rings the doorbell, waiting for room if the queue is full.
     *
     * @throws RejectedExecutionException the queue is full and the caller runs an engine cycle
     * @throws IllegalStateException the queue stayed full for {@link #ROOM_TIMEOUT_NANOS}
     */
    void offer(Runnable command) {
        if (!queue.offer(command)) {
            waitForRoom(command);
        }
        doorbell.ring();
    }

    /** Claims room for one command, for {@link #putReserved}; false if the queue is full. */
    boolean reserve() {
        return queue.reserve();
    }

    /** Queues {@code command} in the room {@link #reserve} claimed, and rings the doorbell. */
    void putReserved(Runnable command) {
        queue.put(command);
        doorbell.ring();
    }

    private void waitForRoom(Runnable command) {
        if (device.engines().onEngineCycle()) {
            throw new RejectedExecutionException(owner + "'s command queue is full (" + queue.capacity()
                    + " commands); an engine cycle does not wait for it");
        }
        long deadline = device.clock().nanoTime() + ROOM_TIMEOUT_NANOS;
        while (!queue.offer(command)) {
            doorbell.ring();
            if (device.invokerMode()) {
                device.invoke();                            // the waiting thread drains it itself
            } else {
                LockSupport.parkNanos(ROOM_POLL_NANOS);
            }
            if (device.clock().nanoTime() - deadline > 0) {
                throw new IllegalStateException(owner + "'s command queue stayed full (" + queue.capacity()
                        + " commands) for 10 s" + device.failure().map(f -> "; the engine failed: " + f).orElse(""));
            }
        }
    }

    /** The duty cycle: runs at most {@link #DRAIN_LIMIT} queued commands; returns how many ran. */
    int run() {
        int n = 0;
        for (Runnable c; n < DRAIN_LIMIT && (c = queue.poll()) != null; n++) {
            try {
                c.run();
            } catch (RuntimeException | OutOfMemoryError e) {
                // a setup command (an accepted socket, a connect) that failed ends only its own
                // connection; the engine thread serves the others
                device.report(new IllegalStateException("an engine command failed: " + e, e));
            }
        }
        return n;
    }

    /** Device close, by the thread that owns the stopped engine: runs every command still queued. */
    void runAll() {
        for (Runnable c = queue.poll(); c != null; c = queue.poll()) {
            c.run();
        }
    }
}
