package org.jwarp.engine.ring;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Supplier;

/**
 * A bounded single-producer single-consumer ring of reused slot objects: the SQ and
 * RQ of a queue pair. The application thread (the only producer) {@link #claim()}s the next free
 * slot, copies a work request into it and {@link #publish()}es it; the engine thread (the only
 * consumer) {@link #peek()}s the oldest published slot, reads it and {@link #release()}s it.
 *
 * <p>Ordering: publish is a release store of the tail, and the consumer's acquire load of it makes
 * the slot's contents visible; release is a release store of the head, and the producer's acquire
 * load of it guarantees the consumer is done reading before the slot is refilled. Each side keeps
 * a cached copy of the other side's index and reloads it only when the ring looks full or empty,
 * so in steady state neither side reads the other's cache line on every operation. The two
 * indexes sit on separate, padded cache lines. No lock, no CAS.
 *
 * <p>A slot is made the first time the producer claims its position, and reused ever after: a ring
 * that is never filled (an idle queue pair's) costs only its array, and a ring in steady use
 * allocates nothing. The consumer sees a new slot through the same release/acquire pair as its
 * contents.
 *
 * <p>Misuse is caught where it is cheap: {@link #publish()} without a claim and {@link #release()}
 * of an empty ring throw {@link IllegalStateException}. One producer thread and one consumer
 * thread at a time; calling a producer method from two threads at once corrupts the ring.
 *
 * @param <T> the slot type, e.g. {@code SendWr}
 */
public final class SpscSlotRing<T> extends SpscConsumer<T> {

    private static final VarHandle HEAD;
    private static final VarHandle TAIL;

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            HEAD = l.findVarHandle(SpscConsumerFields.class, "head", long.class);
            TAIL = l.findVarHandle(SpscProducerFields.class, "tail", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * A ring of {@code capacity} slots, each made by {@code slotFactory} when first claimed.
     *
     * @param capacity a power of two, 1 to 2^30
     * @throws IllegalArgumentException if the capacity is not a power of two, or the factory returns null
     */
    public SpscSlotRing(int capacity, Supplier<? extends T> slotFactory) {
        super(RingCapacity.check(capacity, RingCapacity.MIN_SPSC), slotFactory);
    }

    /**
     * Producer: the next free slot, to fill and then {@link #publish()}; {@code null} if the ring
     * is full. Claiming again before publishing returns the same slot.
     */
    public T claim() {
        long t = tail;
        if (!claimed) {
            if (t - headCache >= capacity) {
                headCache = (long) HEAD.getAcquire(this);
                if (t - headCache >= capacity) {
                    return null;
                }
            }
            claimed = true;
        }
        return slot((int) t & mask);
    }

    /**
     * Producer: makes the claimed slot visible to the consumer.
     *
     * @throws IllegalStateException if no slot is claimed
     */
    public void publish() {
        if (!claimed) {
            throw new IllegalStateException("publish() without a claimed slot");
        }
        claimed = false;
        TAIL.setRelease(this, tail + 1);
    }

    /** Consumer: the oldest published slot, left in the ring until {@link #release()}; {@code null} if empty. */
    public T peek() {
        long h = head;
        if (h >= tailCache) {
            tailCache = (long) TAIL.getAcquire(this);
            if (h >= tailCache) {
                return null;
            }
        }
        return slots[(int) h & mask];
    }

    /**
     * Consumer: hands the slot returned by {@link #peek()} back to the producer.
     *
     * @throws IllegalStateException if there is no published slot to release
     */
    public void release() {
        long h = head;
        if (h >= tailCache && h >= (tailCache = (long) TAIL.getAcquire(this))) {
            throw new IllegalStateException("release() of an empty ring");
        }
        HEAD.setRelease(this, h + 1);
    }

    /** Any thread: published slots not yet released (a moment's view, 0..capacity). */
    public int size() {
        long h = (long) HEAD.getAcquire(this);
        long t = (long) TAIL.getAcquire(this);
        return (int) Math.max(0, Math.min(capacity, t - h));
    }

    /** Any thread: {@code size() == 0}. */
    public boolean isEmpty() {
        return size() == 0;
    }

    /** Number of slots. */
    public int capacity() {
        return capacity;
    }

    /**
     * Setup only, with neither side active: the slot at ring position {@code i} (0..capacity-1),
     * e.g. to size each slot's buffers.
     */
    public T slotAt(int i) {
        if (i < 0 || i >= capacity) {
            throw new IndexOutOfBoundsException("slot " + i + " of " + capacity);
        }
        return slot(i);
    }

    @Override
    public String toString() {
        return "SpscSlotRing{capacity=" + capacity + ", size=" + size() + '}';
    }
}

/**
 * The fields both sides read: the slots (each written once, by the producer, before the release
 * store that publishes it), and what nobody writes after construction.
 */
abstract class SpscSlots<T> {
    final T[] slots;
    final int mask;
    final int capacity;
    private final Supplier<? extends T> factory;

    @SuppressWarnings("unchecked")
    SpscSlots(int capacity, Supplier<? extends T> factory) {
        if (factory == null) {
            throw new IllegalArgumentException("slot factory must not be null");
        }
        this.factory = factory;
        this.slots = (T[]) new Object[capacity];
        this.mask = capacity - 1;
        this.capacity = capacity;
        slot(0);    // a factory that returns null fails here, not at the first post
    }

    /** Producer (or setup): the slot at {@code i}, made now if it never was. */
    final T slot(int i) {
        T s = slots[i];
        if (s == null) {
            s = factory.get();
            if (s == null) {
                throw new IllegalArgumentException("slot factory returned null for slot " + i);
            }
            slots[i] = s;
        }
        return s;
    }
}

abstract class SpscPad1<T> extends SpscSlots<T> {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;

    SpscPad1(int capacity, Supplier<? extends T> factory) {
        super(capacity, factory);
    }
}

/** Written by the producer only: its index, its cached view of the head, its claim flag. */
abstract class SpscProducerFields<T> extends SpscPad1<T> {
    long tail;
    long headCache;
    boolean claimed;

    SpscProducerFields(int capacity, Supplier<? extends T> factory) {
        super(capacity, factory);
    }
}

abstract class SpscPad2<T> extends SpscProducerFields<T> {
    long p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30, p31, p32, p33, p34, p35;

    SpscPad2(int capacity, Supplier<? extends T> factory) {
        super(capacity, factory);
    }
}

/** Written by the consumer only: its index and its cached view of the tail. */
abstract class SpscConsumerFields<T> extends SpscPad2<T> {
    long head;
    long tailCache;

    SpscConsumerFields(int capacity, Supplier<? extends T> factory) {
        super(capacity, factory);
    }
}

abstract class SpscConsumer<T> extends SpscConsumerFields<T> {
    long p40, p41, p42, p43, p44, p45, p46, p47, p48, p49, p50, p51, p52, p53, p54, p55;

    SpscConsumer(int capacity, Supplier<? extends T> factory) {
        super(capacity, factory);
    }
}
