package org.jwarp.stack;

import java.util.function.Supplier;

/**
 * Test helper: a bounded work queue of reusable slots, as the engine's ring will be. {@link #slot()}
 * gives the next free slot to fill, {@link #post()} publishes it.
 */
final class ArrayWorkQueue<T> implements WorkQueue<T> {

    private final Object[] slots;
    private long head;
    private long tail;

    ArrayWorkQueue(int capacity, Supplier<T> factory) {
        slots = new Object[capacity];
        for (int i = 0; i < capacity; i++) {
            slots[i] = factory.get();
        }
    }

    @SuppressWarnings("unchecked")
    T slot() {
        if (tail - head == slots.length) {
            throw new IllegalStateException("queue full");
        }
        return (T) slots[(int) (tail % slots.length)];
    }

    void post() {
        tail++;
    }

    int size() {
        return (int) (tail - head);
    }

    @Override
    @SuppressWarnings("unchecked")
    public T peek() {
        return head == tail ? null : (T) slots[(int) (head % slots.length)];
    }

    @Override
    public void advance() {
        if (head == tail) {
            throw new IllegalStateException("advance on an empty queue");
        }
        head++;
    }
}
