package org.jwarp.engine.ring;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.function.Supplier;

/**
 * A bounded multi-producer single-consumer ring of preallocated, reused slot objects, after
 * Dmitry Vyukov's bounded queue (a sequence number per slot): the completion queue that several
 * engine threads may write and the application's polling thread reads.
 *
 * <p>Producer protocol, allocation-free: {@code long c = ring.claim()} (-1 if full), fill
 * {@code ring.slot(c)}, then {@code ring.publish(c)}. The claim is the position itself rather than
 * per-thread state, so any number of producer threads can claim, fill and publish concurrently.
 * Consumer: {@link #peek()} the oldest slot, read it, {@link #release()} it.
 *
 * <p>Slot {@code i}'s sequence says who may touch it: {@code seq == pos} free for the producer
 * that claims position {@code pos}; {@code seq == pos + 1} published, for the consumer;
 * {@code seq == pos + capacity} released, free for the next lap. Producers race only on the tail
 * (one CAS per claim); the consumer never CASes. The consumer sees slots in claim order, so a
 * producer that claimed and has not yet published holds back the slots claimed after it (so
 * a claim is followed at once by filling and publishing, with nothing blocking in between).
 *
 * @param <T> the slot type, e.g. {@code WorkCompletion}
 */
public final class MpscSlotRing<T> extends MpscHead<T> {

    private static final VarHandle TAIL;
    private static final VarHandle HEAD;
    private static final VarHandle SEQ = MethodHandles.arrayElementVarHandle(long[].class);

    static {
        try {
            MethodHandles.Lookup l = MethodHandles.lookup();
            TAIL = l.findVarHandle(MpscTailFields.class, "tail", long.class);
            HEAD = l.findVarHandle(MpscHeadFields.class, "head", long.class);
        } catch (ReflectiveOperationException e) {
            throw new ExceptionInInitializerError(e);
        }
    }

    /**
     * A ring of {@code capacity} slots, each made by {@code slotFactory} now.
     *
     * @param capacity a power of two, 2 to 2^30 (a single slot cannot tell "published" from "free
     *                 for the next lap" by its sequence)
     */
    public MpscSlotRing(int capacity, Supplier<? extends T> slotFactory) {
        super(RingCapacity.check(capacity, RingCapacity.MIN_MPSC), slotFactory);
    }

    /**
     * Producer, any thread: claims the next position.
     *
     * @return the claim to pass to {@link #slot(long)} and {@link #publish(long)}, or -1 if the
     *         ring is full
     */
    public long claim() {
        final long[] seqs = sequences;
        final int mask = this.mask;
        for (;;) {
            long t = (long) TAIL.getVolatile(this);
            long seq = (long) SEQ.getAcquire(seqs, (int) t & mask);
            long dif = seq - t;
            if (dif == 0) {
                if (TAIL.weakCompareAndSet(this, t, t + 1)) {
                    return t;
                }
            } else if (dif < 0) {
                return -1;                          // the slot still holds the previous lap's entry: full
            }
            // dif > 0: another producer took position t; reload the tail and retry
        }
    }

    /** Producer: the slot of a claim, to fill before {@link #publish(long)}. */
    public T slot(long claim) {
        return slots[(int) claim & mask];
    }

    /** Producer: publishes the claimed slot to the consumer (a release store of its sequence). */
    public void publish(long claim) {
        SEQ.setRelease(sequences, (int) claim & mask, claim + 1);
    }

    /** Consumer: the oldest published slot, kept until {@link #release()}; {@code null} if none is ready. */
    public T peek() {
        long h = head;
        int i = (int) h & mask;
        return (long) SEQ.getAcquire(sequences, i) == h + 1 ? slots[i] : null;
    }

    /**
     * Consumer: hands the slot returned by {@link #peek()} back to the producers.
     *
     * @throws IllegalStateException if the oldest slot is not published
     */
    public void release() {
        long h = head;
        int i = (int) h & mask;
        if ((long) SEQ.getAcquire(sequences, i) != h + 1) {
            throw new IllegalStateException("release() with no published slot at the head");
        }
        SEQ.setRelease(sequences, i, h + capacity);
        HEAD.setRelease(this, h + 1);
    }

    /**
     * Consumer, when several threads consume (a shared receive queue's engine threads): takes the
     * oldest published position, or -1 if none is published. The slot is the caller's until
     * {@link #taken(long)}; read it with {@link #slot(long)}. A ring is consumed either this way or
     * with {@link #peek()}/{@link #release()}, never both.
     */
    public long take() {
        final long[] seqs = sequences;
        for (;;) {
            long h = (long) HEAD.getVolatile(this);
            long dif = (long) SEQ.getAcquire(seqs, (int) h & mask) - (h + 1);
            if (dif == 0) {
                if (HEAD.weakCompareAndSet(this, h, h + 1)) {
                    return h;
                }
            } else if (dif < 0) {
                return -1;                          // not yet published: empty
            }
            // dif > 0: another consumer took position h; reload the head and retry
        }
    }

    /** Consumer of {@link #take()}: hands the taken slot back to the producers. */
    public void taken(long claim) {
        SEQ.setRelease(sequences, (int) claim & mask, claim + capacity);
    }

    /** Any thread: claimed and not yet released positions (a moment's view, 0..capacity). */
    public int size() {
        long h = (long) HEAD.getAcquire(this);
        long t = (long) TAIL.getVolatile(this);
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

    /** Setup only, with no thread active: the slot at ring position {@code i} (0..capacity-1). */
    public T slotAt(int i) {
        if (i < 0 || i >= capacity) {
            throw new IndexOutOfBoundsException("slot " + i + " of " + capacity);
        }
        return slots[i];
    }

    @Override
    public String toString() {
        return "MpscSlotRing{capacity=" + capacity + ", size=" + size() + '}';
    }
}

/** Fields read by every side and written only at construction (the sequences' contents change, the reference does not). */
abstract class MpscSlots<T> {
    final T[] slots;
    final long[] sequences;
    final int mask;
    final int capacity;

    @SuppressWarnings("unchecked")
    MpscSlots(int capacity, Supplier<? extends T> factory) {
        if (factory == null) {
            throw new IllegalArgumentException("slot factory must not be null");
        }
        Object[] s = new Object[capacity];
        long[] seq = new long[capacity];
        for (int i = 0; i < capacity; i++) {
            Object slot = factory.get();
            if (slot == null) {
                throw new IllegalArgumentException("slot factory returned null for slot " + i);
            }
            s[i] = slot;
            seq[i] = i;
        }
        this.slots = (T[]) s;
        this.sequences = seq;
        this.mask = capacity - 1;
        this.capacity = capacity;
    }
}

abstract class MpscPad1<T> extends MpscSlots<T> {
    long p00, p01, p02, p03, p04, p05, p06, p07, p08, p09, p10, p11, p12, p13, p14, p15;

    MpscPad1(int capacity, Supplier<? extends T> factory) {
        super(capacity, factory);
    }
}

/** The producers' shared index (CAS). */
abstract class MpscTailFields<T> extends MpscPad1<T> {
    long tail;

    MpscTailFields(int capacity, Supplier<? extends T> factory) {
        super(capacity, factory);
    }
}

abstract class MpscPad2<T> extends MpscTailFields<T> {
    long p20, p21, p22, p23, p24, p25, p26, p27, p28, p29, p30, p31, p32, p33, p34, p35;

    MpscPad2(int capacity, Supplier<? extends T> factory) {
        super(capacity, factory);
    }
}

/** The consumer's index. */
abstract class MpscHeadFields<T> extends MpscPad2<T> {
    long head;

    MpscHeadFields(int capacity, Supplier<? extends T> factory) {
        super(capacity, factory);
    }
}

abstract class MpscHead<T> extends MpscHeadFields<T> {
    long p40, p41, p42, p43, p44, p45, p46, p47, p48, p49, p50, p51, p52, p53, p54, p55;

    MpscHead(int capacity, Supplier<? extends T> factory) {
        super(capacity, factory);
    }
}
