package org.jwarp.engine.runtime;

import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * An engine thread's queue of setup-path commands (connects, accepts, closes, moves, tenants):
 * many producers, one consumer, bounded (DESIGN rule 1), so that a flood of setups holds its
 * producers back instead of the engine's memory. The data path never comes here. A command is a
 * node of its own, which a setup path may allocate; the engine's poll of an empty queue allocates
 * nothing and takes no lock.
 */
public final class CommandQueue {

    /** Commands that may wait for one engine thread. */
    public static final int DEFAULT_CAPACITY = 4096;

    private final ConcurrentLinkedQueue<Runnable> queue = new ConcurrentLinkedQueue<>();
    /** Commands offered and not yet taken: a producer claims its place before it enqueues. */
    private final AtomicInteger claimed = new AtomicInteger();
    private final int capacity;

    public CommandQueue(int capacity) {
        if (capacity < 1) {
            throw new IllegalArgumentException("a command queue holds at least one command: " + capacity);
        }
        this.capacity = capacity;
    }

    /** Any thread: queues {@code command} if there is room, and says whether there was. */
    public boolean offer(Runnable command) {
        if (!reserve()) {
            return false;
        }
        queue.add(command);
        return true;
    }

    /**
     * Any thread: claims room for one command, to be {@link #put} later, and says whether there was
     * any. For a caller that must know there is room before it acts (a QP leaving its thread).
     */
    public boolean reserve() {
        if (claimed.incrementAndGet() > capacity) {
            claimed.decrementAndGet();
            return false;
        }
        return true;
    }

    /** Queues {@code command} in the room a successful {@link #reserve} claimed. */
    public void put(Runnable command) {
        queue.add(command);
    }

    /** The consumer: the oldest command, or null. */
    public Runnable poll() {
        Runnable c = queue.poll();
        if (c != null) {
            claimed.decrementAndGet();
        }
        return c;
    }

    public int capacity() {
        return capacity;
    }

    /** Commands waiting (a snapshot). */
    public int size() {
        return claimed.get();
    }
}
